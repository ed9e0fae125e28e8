import GatewayConfiguration
import HTTPServer
import Lifecycle
import Synchronization

/// The access log as a service of `serve`, started first and stopped last so every request the
/// server finished is written. Its writer thread starts with the log itself (`AccessLog.init`), so
/// an adapter keeps the state machine (an extension could not) and `stop` is `close()`: write what
/// is queued, end the writer, wait for it.
final class AccessLogService: BackgroundService {
    let log: AccessLog
    private let machine = Mutex(ServiceStateMachine())

    init(_ log: AccessLog) { self.log = log }

    var state: ServiceState { machine.withLock { $0.state } }

    func start() throws {
        try machine.withLock { try $0.start() }
    }

    func stop() {
        log.close()
        machine.withLock { $0.stop(); $0.finish() }
    }

    /// `stop` already waited for the writer.
    func join() {}
}

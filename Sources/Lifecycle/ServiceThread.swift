import Foundation

/// One thread running a service's loop, with the state machine of `ServiceState`: start once,
/// stop from any state, join waits for the loop to return.
public final class ServiceThread: @unchecked Sendable {
    public let name: String
    private let token = StopToken()
    /// Guards `current`; broadcast when the loop returns.
    private let condition = NSCondition()
    private var machine = ServiceStateMachine()

    public init(name: String) { self.name = name }

    public var state: ServiceState { condition.withLock { machine.state } }

    /// Runs `body` on a new thread; `body` returns when its token asks it to.
    public func start(_ body: @escaping @Sendable (StopToken) -> Void) throws {
        condition.lock()
        defer { condition.unlock() }
        try machine.start()
        let thread = Thread { [self] in
            body(token)
            condition.withLock {
                machine.finish()
                condition.broadcast()
            }
        }
        thread.name = name
        thread.start()
    }

    public func stop() {
        condition.withLock { machine.stop() }
        token.requestStop()
    }

    public func join() {
        condition.withLock {
            while machine.isActive { condition.wait() }
        }
    }

    /// `join`, giving up after `timeout`: true when the loop has returned.
    public func join(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        return condition.withLock {
            while machine.isActive { if !condition.wait(until: deadline) { break } }
            return !machine.isActive
        }
    }
}

/// A service that is one loop on a `ServiceThread`: conformers write the loop, the lifecycle
/// comes from here.
public protocol ThreadBackedService: BackgroundService {
    var serviceThread: ServiceThread { get }
    /// The loop; returns promptly once `stop.isStopRequested` (use `stop.pause(for:)` to wait).
    func run(until stop: StopToken)
}

extension ThreadBackedService {
    public func start() throws { try serviceThread.start { [self] stop in run(until: stop) } }
    public func stop() { serviceThread.stop() }
    public func join() { serviceThread.join() }
    public var state: ServiceState { serviceThread.state }
}

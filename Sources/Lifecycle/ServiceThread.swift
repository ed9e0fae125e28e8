/// One thread running a service's loop, with the state machine of `ServiceState`: start once,
/// stop from any state, join waits for the loop to return.
public final class ServiceThread: Sendable {
    private struct Life: Sendable {
        var machine = ServiceStateMachine()
        var thread: JoinableThread?
    }

    public let name: String
    private let token = StopToken()
    /// Broadcast when the loop returns.
    private let life = Condition(Life())

    public init(name: String) { self.name = name }

    public var state: ServiceState { life.withLock { $0.machine.state } }

    /// Runs `body` on a new thread; `body` returns when its token asks it to.
    public func start(_ body: @escaping @Sendable (StopToken) -> Void) throws {
        try life.withLock { life throws(ServiceError) in
            try life.machine.start()
            life.thread = JoinableThread(name: name) { [self] in
                body(token)
                self.life.withLock { $0.machine.finish() }
                self.life.broadcast()
            }
        }
    }

    public func stop() {
        life.withLock { $0.machine.stop() }
        token.requestStop()
    }

    public func join() {
        let thread = life.withLock(when: { !$0.machine.isActive }) { $0.thread }
        thread?.join()
    }

    /// `join`, giving up after `timeout`: true when the loop has returned.
    public func join(timeout: Duration) -> Bool {
        life.withLock(when: { !$0.machine.isActive }, timeout: timeout) { !$0.machine.isActive }
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

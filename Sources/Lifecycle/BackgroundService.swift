/// Where a background service is in its life. Only `created` may start: a service runs once.
public enum ServiceState: Sendable, Equatable {
    case created
    case running
    /// Told to stop; its work is winding down.
    case stopping
    case stopped
}

public enum ServiceError: Error, Equatable, Sendable {
    /// `start()` on a service that is not `created` (started before, or stopped).
    case cannotStart(ServiceState)
}

/// Work that runs beside the request path (a poller, a watcher, a log writer, the server itself).
public protocol BackgroundService: AnyObject, Sendable {
    /// Starts the work and returns; throws `ServiceError.cannotStart` unless `created`.
    func start() throws
    /// Asks the work to end and returns at once; idempotent. A service never started is stopped
    /// for good.
    func stop()
    /// Returns once the work has ended (at once for a service that never started).
    func join()
}

/// The transitions of `ServiceState`, for conformers to keep under their own lock.
public struct ServiceStateMachine: Sendable, Equatable {
    public private(set) var state = ServiceState.created

    public init() {}

    /// created → running; any other state throws (a service runs once).
    public mutating func start() throws(ServiceError) {
        guard state == .created else { throw .cannotStart(state) }
        state = .running
    }

    /// created → stopped (never to start), running → stopping; later states stay.
    public mutating func stop() {
        switch state {
        case .created: state = .stopped
        case .running: state = .stopping
        case .stopping, .stopped: break
        }
    }

    /// The work has ended.
    public mutating func finish() { state = .stopped }

    /// Work started and not yet ended: what `join` waits for.
    public var isActive: Bool { state == .running || state == .stopping }
}

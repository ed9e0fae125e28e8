/// How a service's thread learns it should end: a flag plus a wake-up, so a loop that pauses
/// between rounds ends at once instead of after its pause.
public final class StopToken: Sendable {
    private let requested = Condition(false)

    public init() {}

    public var isStopRequested: Bool { requested.withLock { $0 } }

    func requestStop() {
        requested.withLock { $0 = true }
        requested.broadcast()
    }

    /// Pauses for `duration` or until a stop is requested; true when it was.
    public func pause(for duration: Duration) -> Bool {
        requested.withLock(when: { $0 }, timeout: duration) { $0 }
    }
}

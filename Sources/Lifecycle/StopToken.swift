import Foundation
import Synchronization

/// How a service's thread learns it should end: a flag plus a wake-up, so a loop that pauses
/// between rounds ends at once instead of after its pause.
public final class StopToken: Sendable {
    private let requested = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)

    public init() {}

    public var isStopRequested: Bool { requested.load(ordering: .acquiring) }

    func requestStop() {
        requested.store(true, ordering: .releasing)
        wakeUp.signal()
    }

    /// Pauses for `duration` or until a stop is requested; true when it was.
    public func pause(for duration: Duration) -> Bool {
        if isStopRequested { return true }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        _ = wakeUp.wait(timeout: .now() + .nanoseconds(max(0, nanoseconds)))
        return isStopRequested
    }
}

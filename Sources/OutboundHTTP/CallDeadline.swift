import Foundation
import Wire

/// One call's deadline, every retry and pause included, on the client's clock: a caller waiting
/// on an outside service waits this long at most, however the service answers.
public struct CallDeadline: Sendable, Equatable {
    public let end: Instant

    public init(seconds: TimeInterval, from start: Instant) {
        end = start.adding(milliseconds: Int64(seconds * 1000))
    }

    /// Seconds left at `now`; zero or less once the deadline has passed.
    public func remaining(at now: Instant) -> TimeInterval {
        Double(end.millisecondsSinceEpoch - now.millisecondsSinceEpoch) / 1000
    }
}

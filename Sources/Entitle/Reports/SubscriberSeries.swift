import IssueCatalog
import Wire

/// E37: subscribers over time, day by day, from the stored intervals of the subscriptions that
/// grant one publication, in one sweep (`Tally`): each subscription adds a +1/−1 at the days it
/// starts and stops being counted, so the cost is the intervals plus the days, never one
/// evaluation per account per day. Pure.
public enum SubscriberSeries {
    /// One UTC day's counts (reports.md E37).
    public struct Day: Equatable, Sendable {
        /// Days since 1970-01-01.
        public var day: Int64
        /// Active at end(D) − 1 ms, in all and per store.
        public var active = 0
        public var activeByStore: [Store: Int] = Dictionary(uniqueKeysWithValues: Store.allCases.map { ($0, 0) })
        /// In trial at end(D) − 1 ms.
        public var trials = 0
        /// First paid period starts in D.
        public var new = 0
        /// Serves at start(D) − 1 ms and not at end(D) − 1 ms.
        public var churned = 0
        /// Does not serve at start(D) − 1 ms, serves at end(D) − 1 ms, served before start(D).
        public var reactivated = 0

        public init(day: Int64) { self.day = day }
    }

    public static let dayMilliseconds: Int64 = 86_400_000

    /// The UTC day (days since 1970-01-01) holding `t`.
    public static func day(of t: Instant) -> Int64 { Sweep.day(t) }
}

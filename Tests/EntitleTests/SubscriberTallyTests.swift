@testable import Entitle
import IssueCatalog
import TestSupport
import Testing
import Wire

/// E37's tally, fed as a store reads rows: a subscription's rows in any order count the same;
/// E3's environment and E8's own grace are applied per subscription; the in-place merge every
/// subscription goes through answers what `IntervalMerge.merged` answers.
@Suite struct SubscriberTallyTests {
    static let day = SubscriberSeries.dayMilliseconds

    static func period(_ from: Int64, _ to: Int64) -> ActivePeriod {
        ActivePeriod(start: Instant(millisecondsSinceEpoch: from), end: Instant(millisecondsSinceEpoch: to))
    }

    /// Days 0…30 of one App Store subscription's rows.
    static func days(_ rows: [(SubscriptionInterval.Kind, ActivePeriod)], environment: StoreEnvironment = .production,
                     policy: EntitlementPolicy = .default) -> [SubscriberSeries.Day] {
        var tally = SubscriberSeries.Tally(first: 0, last: 30, policy: policy) { _ in nil }
        tally.subscription(store: .appStore, environment: environment)
        for (kind, period) in rows { tally.interval(kind, period) }
        return tally.days()
    }

    /// A trial, two paid periods with a gap, the App Store's grace after the second: in their
    /// order or shuffled, the same days; grace is active, the gap churns, the return reactivates.
    @Test func e37ASubscriptionsRowsInAnyOrderCountTheSame() {
        let d = Self.day
        let rows: [(SubscriptionInterval.Kind, ActivePeriod)] = [
            (.trial, Self.period(0, 3 * d)), (.paid, Self.period(3 * d, 10 * d)),
            (.paid, Self.period(15 * d, 20 * d)), (.grace, Self.period(20 * d, 22 * d)),
        ]
        let ordered = Self.days(rows)
        #expect(ordered.map(\.active) == (0...30).map { (3..<10).contains($0) || (15..<22).contains($0) ? 1 : 0 })
        #expect(ordered.map(\.trials) == (0...30).map { $0 < 3 ? 1 : 0 })
        #expect(ordered.map(\.new) == (0...30).map { $0 == 3 ? 1 : 0 })
        #expect(ordered.map(\.churned) == (0...30).map { $0 == 10 || $0 == 22 ? 1 : 0 })
        #expect(ordered.map(\.reactivated) == (0...30).map { $0 == 15 ? 1 : 0 })
        #expect(ordered[5].activeByStore == [.appStore: 1, .googlePlay: 0, .stripe: 0])
        var rng = SplitMix64(seed: 91)
        for _ in 0..<20 {
            #expect(Self.days(rows.shuffled(using: &rng)) == ordered)
        }
    }

    /// E3: a sandbox subscription counts only where the policy accepts sandbox; E8: the gateway's
    /// own grace is cut to the policy's days, and none with no grace days.
    @Test func e37EnvironmentAndOwnGraceFollowThePolicy() {
        let d = Self.day
        let rows: [(SubscriptionInterval.Kind, ActivePeriod)] = [(.paid, Self.period(0, 10 * d)), (.ownGrace, Self.period(10 * d, 25 * d))]
        #expect(Self.days(rows, environment: .sandbox, policy: EntitlementPolicy(acceptSandbox: false)).allSatisfy { $0.active == 0 })
        #expect(Self.days(rows, policy: EntitlementPolicy(graceDays: 0)).map(\.active) == (0...30).map { $0 < 10 ? 1 : 0 })
        #expect(Self.days(rows, environment: .sandbox, policy: EntitlementPolicy(acceptSandbox: true, graceDays: 3)).map(\.active)
            == (0...30).map { $0 < 13 ? 1 : 0 })
    }

    /// The in-place merge (reused buffers): the union of the periods, sorted, disjoint and apart, over random
    /// lists with empty, touching, overlapping and unsorted periods.
    @Test func mergeInPlaceGivesTheUnionSortedAndApart() {
        var rng = SplitMix64(seed: 37)
        for _ in 0..<2_000 {
            let periods = (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                let start = Int64.random(in: 0...40, using: &rng)
                return Self.period(start, start + Int64.random(in: -2...10, using: &rng))
            }
            var buffer: [ActivePeriod] = []
            buffer.reserveCapacity(4)
            buffer.append(contentsOf: periods)
            IntervalMerge.merge(&buffer)
            func instants(_ p: ActivePeriod) -> Range<Int64> {
                p.start.millisecondsSinceEpoch..<max(p.start.millisecondsSinceEpoch, p.end.millisecondsSinceEpoch)
            }
            #expect(Set(buffer.flatMap(instants)) == Set(periods.flatMap(instants)))
            #expect(zip(buffer, buffer.dropFirst()).allSatisfy { $0.end < $1.start } && buffer.allSatisfy { !$0.isEmpty })
        }
    }
}

import IssueCatalog
import Wire

/// E37: subscribers over time, day by day, from the stored intervals of the subscriptions that
/// grant one publication, in one sweep: each subscription adds a +1/−1 at the days it starts and
/// stops being counted, so the cost is the intervals plus the days, never one evaluation per
/// account per day. Pure.
public enum SubscriberSeries {
    /// One interval as stored, with the account it was computed for (non-renewing purchases
    /// stack per account, E10).
    public struct Row: Sendable {
        public var accountId: String
        public var interval: SubscriptionInterval
        public init(accountId: String, interval: SubscriptionInterval) { self.accountId = accountId; self.interval = interval }
    }

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

    /// Days `first...last` (days since the epoch). `rows` are every stored interval of products
    /// granting the publication, each subscription's rows next to each other; `duration` names
    /// a non-renewing product's duration in the catalog (E10).
    public static func days(_ rows: [Row], first: Int64, last: Int64, policy: EntitlementPolicy,
                            duration: (StoreProductRef) -> ISODuration?) -> [Day] {
        guard first <= last else { return [] }
        var sweep = Sweep(first: first, last: last)
        var nonRenewing: [String: [(SubscriptionKey, NonRenewingStack.Purchase)]] = [:]
        var start = 0
        while start < rows.count {
            var end = start + 1
            while end < rows.count, rows[end].interval.subscription == rows[start].interval.subscription { end += 1 }
            var life = Life()
            for row in rows[start..<end] where policy.accepts(row.interval.subscription.environment) {
                let interval = row.interval
                switch interval.kind {
                case .paid: life.paid.append(interval.period)
                case .trial: life.trial.append(interval.period)
                case .grace: life.grace.append(interval.period)
                case .ownGrace:
                    guard policy.graceMilliseconds > 0 else { continue }
                    life.grace.append(ActivePeriod(start: interval.period.start, end: min(interval.period.end,
                        interval.period.start.adding(milliseconds: policy.graceMilliseconds))))
                case .refunded: life.refunded = true
                case .nonRenewing:
                    var purchases = nonRenewing[row.accountId, default: []]
                    purchases.append((interval.subscription, NonRenewingStack.Purchase(
                        purchaseDate: interval.period.start, transactionId: interval.subscription.originalTransactionId,
                        duration: duration(interval.product), transaction: purchases.count, product: 0)))
                    nonRenewing[row.accountId] = purchases
                }
            }
            sweep.add(life, store: rows[start].interval.subscription.store)
            start = end
        }
        // E10: non-renewing purchases of the products granting this publication stack per account.
        for purchases in nonRenewing.values {
            for (period, purchase) in NonRenewingStack.stacked(purchases.map(\.1)) {
                sweep.add(Life(paid: [period]), store: purchases[purchase.transaction].0.store)
            }
        }
        return sweep.days()
    }

    /// One subscription's periods, as its rows give them.
    struct Life {
        var paid: [ActivePeriod] = []
        var grace: [ActivePeriod] = []
        var trial: [ActivePeriod] = []
        var refunded = false
    }

    /// The counts being built, over days `first − 1 ... last` (the day before, for the first
    /// day's comparison at start(D) − 1 ms).
    struct Sweep {
        let low: Int64, count: Int
        var active: [Int], byStore: [Store: [Int]], trials: [Int]
        var new: [Int], churned: [Int], reactivated: [Int]

        init(first: Int64, last: Int64) {
            low = first - 1
            let count = Int(last - low + 1), zeros = Array(repeating: 0, count: count + 1)
            self.count = count
            active = zeros
            byStore = Dictionary(uniqueKeysWithValues: Store.allCases.map { ($0, zeros) })
            trials = active; new = active; churned = active; reactivated = active
        }

        /// The day holding instant `t` (floor).
        static func day(_ t: Instant) -> Int64 {
            let ms = t.millisecondsSinceEpoch
            return ms >= 0 ? ms / dayMilliseconds : -((-(ms + 1)) / dayMilliseconds) - 1
        }

        /// Counted at end(D) − 1 ms for D in [day(start), day(end)): end(D) − 1 ms ≥ start ⟺
        /// D ≥ day(start), and end(D) − 1 ms < end ⟺ end(D) ≤ end ⟺ D < day(end).
        private static func days(_ p: ActivePeriod) -> (Int64, Int64) { (day(p.start), day(p.end)) }

        private static func level(_ counts: inout [Int], _ periods: [ActivePeriod], low: Int64, count: Int) {
            func index(_ day: Int64) -> Int { Int(min(max(day - low, 0), Int64(count))) }
            for p in periods {
                let (a, b) = days(p)
                let i = index(a), j = index(b)
                if i < j { counts[i] += 1; counts[j] -= 1 }
            }
        }

        /// One event on `day`, when it is one of the days answered.
        private static func point(_ counts: inout [Int], _ day: Int64, low: Int64, count: Int) {
            if day > low, day - low < Int64(count) { counts[Int(day - low)] += 1 }
        }

        mutating func add(_ life: Life, store: Store) {
            let paid = IntervalMerge.merged(life.paid)
            // E8's grace follows a paid period: with every paid period refunded there is none to follow.
            let active = life.grace.isEmpty || paid.isEmpty ? paid : IntervalMerge.merged(paid + life.grace)
            let trial = IntervalMerge.merged(life.trial)
            let serve = trial.isEmpty ? active : IntervalMerge.merged(active + trial)
            guard !serve.isEmpty else { return }
            let low = low, count = count
            Self.level(&self.active, active, low: low, count: count)
            Self.level(&byStore[store, default: []], active, low: low, count: count)
            Self.level(&trials, trial, low: low, count: count)
            if let first = paid.first { Self.point(&new, Self.day(first.start), low: low, count: count) }
            // Days served at end(D) − 1 ms, as runs of days.
            var runs: [(Int64, Int64)] = []
            for p in serve {
                let (a, b) = Self.days(p)
                guard a < b else { continue }
                if let last = runs.last, a <= last.1 { runs[runs.count - 1].1 = max(last.1, b) } else { runs.append((a, b)) }
            }
            // A subscription whose paid periods were all refunded is never churned (reports.md, Decisions).
            let neverChurns = paid.isEmpty && life.refunded
            let firstServed = serve[0].start.millisecondsSinceEpoch
            for (a, b) in runs {
                if firstServed < a.multipliedReportingOverflow(by: dayMilliseconds).partialValue {
                    Self.point(&reactivated, a, low: low, count: count)
                }
                if !neverChurns { Self.point(&churned, b, low: low, count: count) }
            }
        }

        func days() -> [Day] {
            var out: [Day] = []
            out.reserveCapacity(count - 1)
            var a = 0, t = 0
            var s = Dictionary(uniqueKeysWithValues: Store.allCases.map { ($0, 0) })
            for i in 0..<count {
                a += active[i]; t += trials[i]
                for store in Store.allCases { s[store, default: 0] += byStore[store]?[i] ?? 0 }
                guard i > 0 else { continue }
                var day = Day(day: low + Int64(i))
                day.active = a; day.trials = t; day.activeByStore = s
                day.new = new[i]; day.churned = churned[i]; day.reactivated = reactivated[i]
                out.append(day)
            }
            return out
        }
    }
}

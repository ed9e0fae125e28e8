import IssueCatalog
import Wire

extension SubscriberSeries {
    /// E37's counts over days `first...last`, fed one subscription at a time as a store reads its
    /// rows (`subscription(store:environment:)`, then that subscription's `interval`s), so that
    /// no row is kept once its subscription is counted: the cost is the rows plus the days
    /// (decision 91). The buffers of one subscription are reused for the next: counting a
    /// subscription allocates nothing.
    public struct Tally {
        private var sweep: Sweep
        private let policy: EntitlementPolicy
        private let duration: (StoreProductRef) -> ISODuration?
        /// The subscription being read: its store's column in the sweep, nil when its
        /// environment is not counted (E3).
        private var open: Int?
        private var paid: [ActivePeriod] = [], grace: [ActivePeriod] = [], trial: [ActivePeriod] = []
        private var active: [ActivePeriod] = [], serve: [ActivePeriod] = []
        private var refunded = false
        /// E10: non-renewing purchases stack per account, so they are counted at the end.
        private var nonRenewing: [String: [(store: Store, purchase: NonRenewingStack.Purchase)]] = [:]

        /// `duration` names a non-renewing product's duration in the catalog (E10).
        public init(first: Int64, last: Int64, policy: EntitlementPolicy, duration: @escaping (StoreProductRef) -> ISODuration?) {
            sweep = Sweep(first: first, last: max(last, first - 1))
            self.policy = policy
            self.duration = duration
        }

        /// Starts the next subscription; the one before is counted now. Each subscription must be
        /// given once, with all its rows.
        public mutating func subscription(store: Store, environment: StoreEnvironment) {
            close()
            open = policy.accepts(environment) ? Sweep.column(store) : nil
        }

        /// One stored interval of the subscription started last. Non-renewing purchases go to
        /// `nonRenewing(_:product:purchasedAt:accountId:)`, which knows their account.
        public mutating func interval(_ kind: SubscriptionInterval.Kind, _ period: ActivePeriod) {
            guard open != nil else { return }
            switch kind {
            case .paid: paid.append(period)
            case .trial: trial.append(period)
            case .grace: grace.append(period)
            case .ownGrace:
                // Stored as long as the policy may make it: cut to the policy's graceDays here.
                guard policy.graceMilliseconds > 0 else { return }
                grace.append(ActivePeriod(start: period.start,
                                          end: min(period.end, period.start.adding(milliseconds: policy.graceMilliseconds))))
            case .refunded: refunded = true
            case .nonRenewing: assertionFailure("a non-renewing purchase is given with its account")
            }
        }

        /// E10: one non-renewing purchase of `product`, owned by `accountId` ("" for nobody);
        /// stacked with the account's others when the days are asked.
        public mutating func nonRenewing(_ purchase: SubscriptionKey, product: StoreProductRef, purchasedAt: Instant,
                                         accountId: String) {
            guard policy.accepts(purchase.environment) else { return }
            let index = nonRenewing[accountId]?.count ?? 0
            nonRenewing[accountId, default: []].append((purchase.store, NonRenewingStack.Purchase(
                purchaseDate: purchasedAt, transactionId: purchase.originalTransactionId, duration: duration(product),
                transaction: index, product: 0)))
        }

        /// The counts, day by day (every subscription given so far counted).
        public mutating func days() -> [Day] {
            close()
            for purchases in nonRenewing.values {
                for (period, purchase) in NonRenewingStack.stacked(purchases.map(\.purchase)) {
                    paid.removeAll(keepingCapacity: true)
                    paid.append(period)
                    count(column: Sweep.column(purchases[purchase.transaction].store))
                }
            }
            nonRenewing = [:]
            return sweep.days()
        }

        /// Counts the open subscription and empties the buffers for the next.
        private mutating func close() {
            if let column = open { count(column: column) }
            open = nil
            paid.removeAll(keepingCapacity: true); grace.removeAll(keepingCapacity: true)
            trial.removeAll(keepingCapacity: true)
            refunded = false
        }

        private mutating func count(column: Int) {
            IntervalMerge.merge(&paid)
            // E8's grace follows a paid period: with every paid period refunded there is none to follow.
            active.removeAll(keepingCapacity: true)
            active.append(contentsOf: paid)
            if !grace.isEmpty, !paid.isEmpty { active.append(contentsOf: grace); IntervalMerge.merge(&active) }
            IntervalMerge.merge(&trial)
            serve.removeAll(keepingCapacity: true)
            serve.append(contentsOf: active)
            if !trial.isEmpty { serve.append(contentsOf: trial); IntervalMerge.merge(&serve) }
            // A subscription whose paid periods were all refunded is never churned (reports.md, Decisions).
            sweep.add(paid: paid, active: active, trial: trial, serve: serve, column: column,
                      neverChurns: paid.isEmpty && refunded)
        }
    }

    /// The counts being built, over days `first − 1 ... last` (the day before, for the first
    /// day's comparison at start(D) − 1 ms), as differences from the day before (+1 on the day a
    /// subscription starts being counted, −1 on the day it stops), summed once at the end.
    struct Sweep {
        let low: Int64, count: Int
        var active: [Int], byStore: [[Int]], trials: [Int]
        var new: [Int], churned: [Int], reactivated: [Int]

        init(first: Int64, last: Int64) {
            low = first - 1
            let count = Int(last - low + 1), zeros = Array(repeating: 0, count: count + 1)
            self.count = count
            active = zeros
            byStore = Store.allCases.map { _ in zeros }
            trials = active; new = active; churned = active; reactivated = active
        }

        /// A store's column in `byStore`.
        static func column(_ store: Store) -> Int { Store.allCases.firstIndex(of: store) ?? 0 }

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

        /// One subscription, its periods merged: `active` is paid ∪ grace, `serve` active ∪ trial.
        mutating func add(paid: [ActivePeriod], active: [ActivePeriod], trial: [ActivePeriod], serve: [ActivePeriod],
                          column: Int, neverChurns: Bool) {
            guard let firstServed = serve.first?.start.millisecondsSinceEpoch else { return }
            let low = low, count = count
            Self.level(&self.active, active, low: low, count: count)
            Self.level(&byStore[column], active, low: low, count: count)
            Self.level(&trials, trial, low: low, count: count)
            if let first = paid.first { Self.point(&new, Self.day(first.start), low: low, count: count) }
            // Days served at end(D) − 1 ms, as runs of days [a, b): reactivated on a run's first
            // day when it served at an instant before it, churned on the day after the run.
            var run: (Int64, Int64)?
            for p in serve {
                let (a, b) = Self.days(p)
                guard a < b else { continue }
                if let r = run, a <= r.1 { run = (r.0, max(r.1, b)); continue }
                if let r = run { close(run: r.0, r.1, firstServed: firstServed, neverChurns: neverChurns) }
                run = (a, b)
            }
            if let r = run { close(run: r.0, r.1, firstServed: firstServed, neverChurns: neverChurns) }
        }

        private mutating func close(run a: Int64, _ b: Int64, firstServed: Int64, neverChurns: Bool) {
            let low = low, count = count
            if firstServed < a.multipliedReportingOverflow(by: dayMilliseconds).partialValue {
                Self.point(&reactivated, a, low: low, count: count)
            }
            if !neverChurns { Self.point(&churned, b, low: low, count: count) }
        }

        func days() -> [Day] {
            var out: [Day] = []
            out.reserveCapacity(max(count - 1, 0))
            var a = 0, t = 0
            var s = Array(repeating: 0, count: Store.allCases.count)
            for i in 0..<count {
                a += active[i]; t += trials[i]
                for column in s.indices { s[column] += byStore[column][i] }
                guard i > 0 else { continue }
                var day = Day(day: low + Int64(i))
                day.active = a; day.trials = t
                day.activeByStore = Dictionary(uniqueKeysWithValues: zip(Store.allCases, s))
                day.new = new[i]; day.churned = churned[i]; day.reactivated = reactivated[i]
                out.append(day)
            }
            return out
        }
    }
}

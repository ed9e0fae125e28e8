import IssueCatalog
import Wire

/// E37's subscriptions of one account, from its facts by the engine's own period computation
/// (`SubscriptionTimeline`: E5–E9, E24, E27, E8's grace): per subscription and product, its paid,
/// trial and grace periods merged where they touch. Auto-renewable subscriptions and
/// non-renewing purchases are subscriptions; free subscriptions, single issues and grants are not
/// (reports.md, Decisions). Pure.
public enum SubscriptionIntervals {
    public struct Result: Equatable, Sendable {
        /// Every subscription the facts hold (also those left with no interval, such as one
        /// refunded whole), so that a stored copy of their intervals can be replaced.
        public var subscriptions: [SubscriptionKey]
        /// Sorted by subscription, product, kind, start.
        public var intervals: [SubscriptionInterval]
    }

    /// Computed with sandbox facts included (each interval keeps its environment: a series leaves
    /// them out unless the policy counts them, E3) and the longest grace the policy may give
    /// (`ownGrace`, cut by the series to the policy's length). `products` are the catalog products
    /// the facts name (others are unknown to the catalog and grant nothing).
    public static func of(_ facts: AccountFacts, products: [Product]) -> Result {
        let policy = EntitlementPolicy(acceptSandbox: true, graceDays: EntitlementPolicy.maximumGraceDays)
        let catalog = EntitlementCatalog(CatalogSnapshot(Catalog(products: products)))
        let accepted = AccountTransactions(facts.transactions, policy: policy)
        let renewals = TransactionMerge.mergeAll(facts.renewals)
        let account = FactsByKind(accepted, catalog: catalog)
        var keys: Set<SubscriptionKey> = []
        var out: [SubscriptionInterval] = []
        for (key, positions) in account.subscriptions {
            keys.insert(key)
            let timeline = SubscriptionTimeline(key: key, table: accepted.table, positions: positions,
                                                renewal: renewals.first { $0.subscriptionKey == key }, policy: policy,
                                                product: { catalog.productNumbers[StoreProductRef(store: key.store, storeProductId: $0)] })
            for (i, interval) in timeline.intervals.enumerated() {
                let trial = interval.transaction.map { accepted.table[$0].offer == .freeTrial } ?? false
                let ownGrace = timeline.currentGraceIsOwn && i == timeline.intervals.count - 1  // added last (E8)
                guard let number = interval.product, let kind = kind(of: interval, trial: trial, ownGrace: ownGrace) else { continue }
                out.append(SubscriptionInterval(subscription: key, productId: catalog.products[number].storeProductId,
                                                kind: kind, period: interval.period))
            }
        }
        // E10: unrevoked non-renewing purchases (E6: a revoked one never was).
        for position in accepted.order {
            let t = accepted.table[position]
            guard let number = catalog.productNumbers[StoreProductRef(store: t.store, storeProductId: t.productId)],
                  catalog.products[number].kind == .nonRenewing else { continue }
            keys.insert(t.subscriptionKey)
            guard t.revocationDate == nil, let duration = catalog.products[number].duration else { continue }
            out.append(SubscriptionInterval(subscription: t.subscriptionKey, productId: t.productId, kind: .nonRenewing,
                                            period: ActivePeriod(start: t.purchaseDate, end: duration.added(to: t.purchaseDate))))
        }
        return Result(subscriptions: keys.sorted(), intervals: merged(out))
    }

    /// What E37 makes of one of the timeline's intervals (`trial`: the transaction serving it is
    /// in a free trial): nil for what it does not count (a refunded remainder after a cut).
    private static func kind(of interval: ProductInterval, trial: Bool, ownGrace: Bool) -> SubscriptionInterval.Kind? {
        switch interval.kind {
        case .service: trial ? .trial : .paid
        case .grace: ownGrace ? .ownGrace : .grace
        case .void: .refunded
        case .refundedAfterCut: nil
        }
    }

    /// Intervals of one subscription, product and kind merged where they overlap or touch (a
    /// subscription renewing month after month is one row); non-renewing purchases stay apart.
    private static func merged(_ intervals: [SubscriptionInterval]) -> [SubscriptionInterval] {
        var groups: [Group: [ActivePeriod]] = [:]
        var out: [SubscriptionInterval] = []
        for interval in intervals {
            if interval.kind == .nonRenewing { out.append(interval); continue }
            groups[Group(interval), default: []].append(interval.period)
        }
        for (group, periods) in groups {
            for period in IntervalMerge.merged(periods) {
                out.append(SubscriptionInterval(subscription: group.subscription, productId: group.productId,
                                                kind: group.kind, period: period))
            }
        }
        return out.sorted {
            ($0.subscription, $0.productId, $0.kind.rawValue, $0.period.start.millisecondsSinceEpoch)
                < ($1.subscription, $1.productId, $1.kind.rawValue, $1.period.start.millisecondsSinceEpoch)
        }
    }

    private struct Group: Hashable {
        var subscription: SubscriptionKey, productId: String, kind: SubscriptionInterval.Kind
        init(_ i: SubscriptionInterval) { subscription = i.subscription; productId = i.productId; kind = i.kind }
    }
}

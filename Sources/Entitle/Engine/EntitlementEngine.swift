import IssueCatalog

/// Which issues an account may download, and why (entitlement-rules.md E1–E20). Pure: the catalog,
/// the account's facts, the policy and "now" go in; nothing is read from anywhere else.
public enum EntitlementEngine {
    public static func evaluate(catalog: CatalogSnapshot, transactions: [Transaction], renewals: [RenewalInfo],
                                policy: EntitlementPolicy, now: Instant) -> AccountEntitlements {
        evaluate(catalog: EntitlementCatalog.prepared(catalog), transactions: transactions,
                 renewals: renewals, policy: policy, now: now)
    }

    /// The same, against a catalog prepared once (what a server holds beside its snapshot).
    public static func evaluate(catalog: EntitlementCatalog, transactions: [Transaction], renewals: [RenewalInfo],
                                policy: EntitlementPolicy, now: Instant) -> AccountEntitlements {
        // E3: sandbox facts count only where the policy accepts them. E1: duplicates merge.
        let accepted = TransactionMerge.mergeAll(transactions.filter { policy.accepts($0.environment) })
        var renewalByKey: [SubscriptionKey: RenewalInfo] = [:]
        for r in TransactionMerge.mergeAll(renewals.filter({ policy.accepts($0.environment) })) {
            renewalByKey[SubscriptionKey(environment: r.environment, originalTransactionId: r.originalTransactionId)] = r
        }
        let snapshot = catalog.snapshot
        var account = AccountFacts()
        for i in subscriptionOrder(accepted) {
            account.add(accepted[i], product: snapshot.product(accepted[i].productId))
        }

        var grants: [String: PublicationGrants] = [:]
        func spread(_ interval: ProductInterval) {
            for publicationId in catalog.grants(of: interval.productId) {
                grants[publicationId, default: PublicationGrants()].add(interval)
            }
        }
        var subscriptions: [SubscriptionStatus] = []
        for (key, transactions) in account.subscriptions {
            let timeline = SubscriptionTimeline(key: key, transactions: transactions,
                                                renewal: renewalByKey[key], policy: policy)
            timeline.intervals.forEach(spread)
            if let status = SubscriptionStateRules.status(of: timeline, catalog: snapshot,
                                                          introConsumedGroups: account.introConsumedGroups, now: now) {
                subscriptions.append(status)
            }
        }
        account.singleIntervals.forEach(spread)
        for (publicationId, purchases) in account.nonRenewingByPublication {
            for period in NonRenewingStack.periods(purchases.sorted { purchaseOrder($0.transaction, $1.transaction) }) {
                grants[publicationId, default: PublicationGrants()].service.append(period)
            }
        }
        for (ref, revoked) in account.issuePurchases {
            if revoked { grants[ref.publicationId, default: PublicationGrants()].refundedPurchases.insert(ref.issueId) }
            else { grants[ref.publicationId, default: PublicationGrants()].purchased.insert(ref.issueId) }
        }

        var held: [String: PublicationEntitlements] = [:]
        for (publicationId, g) in grants {
            guard let index = catalog.publication(publicationId) else { continue }
            held[publicationId] = PublicationEntitlements(index: index, grants: g, now: now)
        }
        return AccountEntitlements(now: now, subscriptions: subscriptions,
                                   purchases: account.purchases.sorted { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) },
                                   catalog: catalog, held: held)
    }

    /// Positions in subscription order (environment, originalTransactionId), then purchase order,
    /// compared on extracted fields so that sorting never copies whole transactions.
    static func subscriptionOrder(_ ts: [Transaction]) -> [Int] {
        let sandbox = ts.map { $0.environment != .production }
        let originals = ts.map(\.originalTransactionId)
        let dates = ts.map(\.purchaseDate)
        let ids = ts.map(\.transactionId)
        return ts.indices.sorted { a, b in
            if sandbox[a] != sandbox[b] { return !sandbox[a] }
            if originals[a] != originals[b] { return originals[a] < originals[b] }
            if dates[a] != dates[b] { return dates[a] < dates[b] }
            return ids[a] < ids[b]
        }
    }

    static func purchaseOrder(_ a: Transaction, _ b: Transaction) -> Bool {
        (a.purchaseDate, a.transactionId) < (b.purchaseDate, b.transactionId)
    }
}

extension EntitlementPolicy {
    func accepts(_ environment: AppStoreEnvironment) -> Bool { environment == .production || acceptSandbox }
}

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
        for t in accepted { account.add(t, product: snapshot.product(t.productId)) }

        var grants: [String: PublicationGrants] = [:]
        func spread(_ interval: ProductInterval) {
            for publicationId in snapshot.product(interval.productId)?.grants ?? [] {
                grants[publicationId, default: PublicationGrants()].add(interval)
            }
        }
        var subscriptions: [SubscriptionStatus] = []
        for (key, transactions) in account.subscriptions.sorted(by: { $0.key < $1.key }) {
            let timeline = SubscriptionTimeline(key: key, transactions: transactions.sorted(by: purchaseOrder),
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

    static func purchaseOrder(_ a: Transaction, _ b: Transaction) -> Bool {
        (a.purchaseDate, a.transactionId) < (b.purchaseDate, b.transactionId)
    }
}

extension EntitlementPolicy {
    func accepts(_ environment: AppStoreEnvironment) -> Bool { environment == .production || acceptSandbox }
}

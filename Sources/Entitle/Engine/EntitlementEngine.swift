import IssueCatalog
import Wire

/// Which issues an account may download, and why (entitlement-rules.md E1–E20). Pure: the catalog,
/// the account's facts, the policy and "now" go in; nothing is read from anywhere else.
///
/// Cost: linear in the account's transactions (positions are sorted, never the transactions;
/// product and publication ids are interned by the `EntitlementCatalog`), plus a few binary
/// searches per active period: never the size of the catalog.
public enum EntitlementEngine {
    public static func evaluate(catalog: CatalogSnapshot, facts: AccountFacts, policy: EntitlementPolicy,
                                now: Instant) -> AccountEntitlements {
        evaluate(catalog: EntitlementCatalog.prepared(catalog), facts: facts, policy: policy, now: now)
    }

    /// The same, against a catalog prepared once (what a server holds beside its snapshot).
    public static func evaluate(catalog: EntitlementCatalog, facts: AccountFacts, policy: EntitlementPolicy,
                                now: Instant) -> AccountEntitlements {
        // E3: sandbox facts count only where the policy accepts them. E1: duplicates merge.
        let accepted = AccountTransactions(facts.transactions, policy: policy)
        let renewals = TransactionMerge.mergeAll(facts.renewals.filter { policy.accepts($0.environment) })
        var account = FactsByKind(accepted, catalog: catalog)

        var intervals: [ProductInterval] = []
        var subscriptions: [SubscriptionStatus] = []
        for (key, positions) in account.subscriptions {
            let timeline = SubscriptionTimeline(key: key, table: accepted.table, positions: positions,
                                                renewal: renewals.first { $0.subscriptionKey == key }, policy: policy,
                                                product: { catalog.productNumbers[StoreProductRef(store: key.store, storeProductId: $0)] })
            intervals.append(contentsOf: timeline.intervals)
            if let status = SubscriptionStateRules.status(of: timeline, catalog: catalog.snapshot,
                                                          introConsumedGroups: account.introConsumedGroups, now: now) {
                subscriptions.append(status)
            }
        }
        intervals.append(contentsOf: account.singleIntervals)
        var grants = spread(intervals, catalog: catalog)
        for (publication, purchases) in account.nonRenewing.entries {
            let slot = grants.slot(publication, default: PublicationGrants())
            grants[slot: slot].service.append(contentsOf: NonRenewingStack.periods(purchases))
        }
        for (ref, revoked) in account.issuePurchases {
            guard let number = catalog.publicationNumbers[ref.publicationId],
                  let issue = catalog.snapshot.issue(ref),
                  let position = catalog.publications[number].position(of: issue) else { continue }
            let slot = grants.slot(number, default: PublicationGrants())
            if revoked { grants[slot: slot].refundedPurchases.append(position) } else { grants[slot: slot].purchased.append(position) }
        }
        // E21: like a non-renewing period that does not stack; a revoked grant is as if never given.
        for grant in facts.grants where grant.revokedAt == nil {
            if let ref = grant.issue {  // E22: one issue for good
                guard let number = catalog.publicationNumbers[ref.publicationId], let issue = catalog.snapshot.issue(ref),
                      let position = catalog.publications[number].position(of: issue) else { continue }
                let slot = grants.slot(number, default: PublicationGrants())
                grants[slot: slot].grantedIssues.append(position)
                continue
            }
            guard !grant.period.isEmpty else { continue }
            for publicationId in Set(grant.publications) {
                guard let number = catalog.publicationNumbers[publicationId] else { continue }
                let slot = grants.slot(number, default: PublicationGrants())
                switch grant.origin {
                case .account: grants[slot: slot].granted.append(grant.period)
                case .institution: grants[slot: slot].institution.append(grant.period)  // E30
                }
            }
        }

        var held = PublicationMap<PublicationEntitlements>()
        for (publication, g) in grants.entries {
            _ = held.slot(publication, default: PublicationEntitlements(index: catalog.publications[publication],
                                                                        grants: g, now: now))
        }
        account.purchases.sort { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
        return AccountEntitlements(now: now, subscriptions: subscriptions, purchases: account.purchases,
                                   catalog: catalog, held: held)
    }

    /// Each product's intervals, given to every publication it grants (E17: as the catalog says now).
    private static func spread(_ intervals: [ProductInterval], catalog: EntitlementCatalog) -> PublicationMap<PublicationGrants> {
        var grants = PublicationMap<PublicationGrants>()
        var lastProduct: Int?
        for interval in intervals where interval.product != lastProduct {  // runs of one product
            lastProduct = interval.product
            guard let product = interval.product else { continue }
            for publication in catalog.productGrants[product] where grants[publication] == nil {
                var g = PublicationGrants()
                for i in intervals where i.product.map({ catalog.productGrants[$0].contains(publication) }) ?? false { g.add(i) }
                _ = grants.slot(publication, default: g)
            }
        }
        return grants
    }
}

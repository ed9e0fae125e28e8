import IssueCatalog
import Wire

/// E36's evidence for one account, from the engine's own intervals (E5–E11, E21, E22; grace E8,
/// cuts E7 and E24, pauses E27, stacking E10 exactly as `EntitlementEngine` computes them), each
/// attributed to the transaction or grant behind it and given to every publication its product
/// grants (E17: as the catalog says now). Pure.
public enum CirculationDerivation {
    /// The account's evidence as stored: `pieces` with touching intervals that report alike
    /// joined (`CirculationIntervalJoin`), about a fifth of the rows, the same answer.
    public static func evidence(catalog: EntitlementCatalog, facts: AccountFacts,
                                policy: EntitlementPolicy) -> [CirculationEvidence] {
        CirculationIntervalJoin.joined(pieces(catalog: catalog, facts: facts, policy: policy)).sorted(by: ordered)
    }

    /// One item per period as the engine makes it (a transaction's, a grace's, a grant's), every
    /// unlock and single issue.
    public static func pieces(catalog: EntitlementCatalog, facts: AccountFacts,
                              policy: EntitlementPolicy) -> [CirculationEvidence] {
        let accepted = AccountTransactions(facts.transactions, policy: policy)
        let renewals = TransactionMerge.mergeAll(facts.renewals.filter { policy.accepts($0.environment) })
        let account = FactsByKind(accepted, catalog: catalog)
        let table = accepted.table
        // Service and grants begin stretches that unlock (E13); grace and single issues do not.
        var service: [CirculationEvidence] = []
        var out: [CirculationEvidence] = []

        func attributed(_ interval: ProductInterval, began: Instant) {
            guard let product = interval.product, let position = interval.transaction,
                  interval.kind == .service || interval.kind == .grace, !interval.period.isEmpty else { return }
            for publication in catalog.productGrants[product] {
                let entitling = item(.interval, catalog.publications[publication].id, interval.period, table[position],
                                     productId: catalog.products[product].id, began: began)
                if interval.kind == .service { service.append(entitling) } else { out.append(entitling) }
            }
        }

        for (key, positions) in account.subscriptions {
            let timeline = SubscriptionTimeline(key: key, table: table, positions: positions,
                                                renewal: renewals.first { $0.subscriptionKey == key }, policy: policy,
                                                product: { catalog.productNumbers[StoreProductRef(store: key.store, storeProductId: $0)] })
            // reports.md: a subscription begins at its first transaction that stands (a trial included).
            let began = timeline.intervals.filter { $0.kind == .service }.map(\.period.start).min()
                ?? table[positions[0]].purchaseDate
            for interval in timeline.intervals { attributed(interval, began: began) }
        }
        for interval in account.singleIntervals {
            attributed(interval, began: interval.transaction.map { table[$0].purchaseDate } ?? interval.period.start)
        }
        for (publication, purchases) in account.nonRenewing.entries {
            for (period, purchase) in NonRenewingStack.stacked(purchases) where !period.isEmpty {
                service.append(item(.interval, catalog.publications[publication].id, period, table[purchase.transaction],
                                    productId: catalog.products[purchase.product].id,
                                    began: table[purchase.transaction].purchaseDate))
            }
        }
        for (ref, positions) in account.issueBuyers {
            for position in positions {
                let t = table[position]
                let product = catalog.productNumbers[StoreProductRef(store: t.store, storeProductId: t.productId)]
                var bought = item(.issue, ref.publicationId, ActivePeriod(start: t.purchaseDate, end: t.purchaseDate), t,
                                  productId: product.map { catalog.products[$0].id }, began: t.purchaseDate)
                bought.issueId = ref.issueId
                out.append(bought)
            }
        }
        // E21, E22: a revoked grant is as if never given; institutions are never stored on an account.
        for grant in facts.grants where grant.revokedAt == nil && grant.origin == .account {
            if let ref = grant.issue {
                out.append(item(.issue, ref.publicationId, grant, issueId: ref.issueId))
                continue
            }
            guard !grant.period.isEmpty else { continue }
            for publicationId in Set(grant.publications) where catalog.publicationNumbers[publicationId] != nil {
                service.append(item(.interval, publicationId, grant))
            }
        }
        out += service + unlocks(service)
        out.sort(by: ordered)
        return out
    }

    /// E13: where each stretch of paid or granted service begins (grace never begins one), with
    /// the transactions and grants that begin it (reports.md: they, and only they, entitle the
    /// issue it unlocks; a purchase starting inside a merged period unlocks nothing of its own).
    private static func unlocks(_ service: [CirculationEvidence]) -> [CirculationEvidence] {
        var byPublication: [String: [CirculationEvidence]] = [:]
        for item in service { byPublication[item.publicationId, default: []].append(item) }
        var out: [CirculationEvidence] = []
        for (_, stretch) in byPublication {
            for period in IntervalMerge.merged(stretch.map { ActivePeriod(start: $0.start, end: $0.end) }) {
                for var starter in stretch where starter.start == period.start {
                    starter.kind = .unlock
                    starter.end = starter.start  // stored so: one index range finds it
                    out.append(starter)
                }
            }
        }
        return out
    }

    private static func item(_ kind: CirculationEvidence.Kind, _ publicationId: String, _ period: ActivePeriod,
                             _ t: Transaction, productId: String?, began: Instant) -> CirculationEvidence {
        CirculationEvidence(kind: kind, publicationId: publicationId, start: period.start, end: period.end,
                            basis: t.offer == .freeTrial ? .trial : .paid, store: t.store, productId: productId,
                            subscriptionId: t.originalTransactionId, beganAt: began)
    }

    private static func item(_ kind: CirculationEvidence.Kind, _ publicationId: String, _ grant: Grant,
                             issueId: String = "") -> CirculationEvidence {
        CirculationEvidence(kind: kind, publicationId: publicationId, start: grant.start, end: grant.period.end,
                            issueId: issueId, basis: .of(grantSource: grant.source), store: nil, productId: nil,
                            subscriptionId: grant.grantId, beganAt: grant.start)
    }

    /// One order whatever order the facts came in (E1), so equal facts give equal rows.
    static func ordered(_ a: CirculationEvidence, _ b: CirculationEvidence) -> Bool {
        if a.publicationId != b.publicationId { return a.publicationId < b.publicationId }
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        if a.issueId != b.issueId { return a.issueId < b.issueId }
        return CirculationEvidence.decides(a, over: b)
    }
}

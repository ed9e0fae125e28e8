import Entitle
import IssueCatalog
import Wire

/// E36 stated again from the facts by reports.md's definitions, slowly and without the engine or
/// the report's derivation: every interval (E5–E11, E21) with the transaction or grant behind it,
/// and for one issue the evidence that entitles it (inside an interval, E12; beginning the
/// stretch that unlocks it, E13; bought or coded, E14/E22), the first by basis, began, store and
/// id. Same scope as `BruteForceReference` (full refunds, upgrades, grace, stacking; no cuts).
enum CirculationReference {
    struct Attributed {
        var publications: [String]
        var start: Instant
        var end: Instant
        /// Grace (E8) entitles but begins no stretch (E13).
        var service: Bool
        var basis: CirculationBasis
        var store: Store?
        var productId: String?
        var subscriptionId: String
        var began: Instant
    }

    struct Decision: Equatable {
        var basis: CirculationBasis
        var store: Store?
        var productId: String?
        var subscriptionId: String
    }

    static func decisions(_ a: RandomAccount, grants: [Grant]) -> [IssueRef: Decision] {
        let products = Dictionary(uniqueKeysWithValues: a.catalog.products.map { ($0.id, $0) })
        let txs = a.transactions.filter { $0.environment == .production || a.policy.acceptSandbox }
        func grantsOf(_ productId: String) -> [String] { products[productId]?.grants ?? [] }
        func basis(_ t: Transaction) -> CirculationBasis { t.offer == .freeTrial ? .trial : .paid }
        func item(_ t: Transaction, _ start: Instant, _ end: Instant, service: Bool = true, began: Instant,
                  publications: [String]? = nil) -> Attributed {
            Attributed(publications: publications ?? grantsOf(t.productId), start: start, end: end, service: service,
                       basis: basis(t), store: t.store, productId: t.productId, subscriptionId: t.originalTransactionId,
                       began: began)
        }
        var intervals: [Attributed] = []
        var bought: [IssueRef: [Attributed]] = [:]

        let subscriptionIds = Set(txs.filter { products[$0.productId]?.kind == .autoRenewable }
            .map { "\($0.environment)|\($0.originalTransactionId)" })
        for sub in subscriptionIds {
            let list = txs.filter { "\($0.environment)|\($0.originalTransactionId)" == sub }
                .sorted { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
            // reports.md: a subscription begins at its first transaction that stands (E6: a refunded one never was).
            let standing = list.filter { $0.isUpgraded || $0.revocationDate == nil }
            guard let began = standing.first?.purchaseDate else { continue }
            var ended: [(end: Instant, t: Transaction)] = []
            for (i, t) in list.enumerated() {
                guard let e = t.expiresDate else { continue }
                var end = e
                if t.isUpgraded { end = min(t.revocationDate ?? (i + 1 < list.count ? list[i + 1].purchaseDate : e), e) }
                ended.append((end, t))
                if !t.isUpgraded && t.revocationDate != nil { continue }
                intervals.append(item(t, t.purchaseDate, end, began: began))
            }
            let renewal = a.renewals.first { "\($0.environment)|\($0.originalTransactionId)" == sub }
            guard let renewal, var last = ended.first else { continue }
            for e in ended where e.end > last.end { last = e }
            var appleGives = false
            if let g = renewal.gracePeriodExpiresDate {
                var lapse: (end: Instant, t: Transaction)?
                for e in ended where e.end <= g && (lapse.map { e.end > $0.end } ?? true) { lapse = e }
                if let lapse, lapse.end < g { intervals.append(item(lapse.t, lapse.end, g, service: false, began: began)) }
                appleGives = g > last.end
            }
            if !appleGives, renewal.isInBillingRetry || renewal.expirationIntent == .billing, a.policy.graceDays > 0 {
                intervals.append(item(last.t, last.end, last.end.adding(milliseconds: Int64(a.policy.graceDays) * 86_400_000),
                                      service: false, began: began))
            }
        }
        for pub in ["p1", "p2"] {
            var cursor = Instant.distantPast
            for t in txs.filter({ products[$0.productId]?.kind == .nonRenewing && $0.revocationDate == nil
                                   && grantsOf($0.productId).contains(pub) })
                .sorted(by: { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }) {
                let start = max(t.purchaseDate, cursor)
                let end = products[t.productId]!.duration!.added(to: start)
                intervals.append(item(t, start, end, began: t.purchaseDate, publications: [pub]))
                cursor = max(cursor, end)
            }
        }
        for t in txs where t.revocationDate == nil {
            switch products[t.productId]?.kind {
            case .free?: intervals.append(item(t, t.purchaseDate, .distantFuture, began: t.purchaseDate))
            case .issue?:
                if let ref = products[t.productId]?.issue { bought[ref, default: []].append(item(t, t.purchaseDate, t.purchaseDate, began: t.purchaseDate)) }
            default: break
            }
        }
        for g in grants where g.revokedAt == nil && g.end.map({ g.start < $0 }) ?? true {
            intervals.append(Attributed(publications: Array(Set(g.publications)), start: g.start, end: g.end ?? .distantFuture,
                                        service: true, basis: g.source == "print" ? .print : .grant, store: nil, productId: nil,
                                        subscriptionId: g.grantId, began: g.start))
        }

        func first(_ candidates: [Attributed]) -> Decision? {
            candidates.min { x, y in
                (x.basis.rawValue, x.began, x.store?.rawValue ?? "", x.subscriptionId, -x.start.millisecondsSinceEpoch,
                 x.productId ?? "")
                    < (y.basis.rawValue, y.began, y.store?.rawValue ?? "", y.subscriptionId, -y.start.millisecondsSinceEpoch,
                       y.productId ?? "")
            }.map { Decision(basis: $0.basis, store: $0.store, productId: $0.productId, subscriptionId: $0.subscriptionId) }
        }
        var out: [IssueRef: Decision] = [:]
        for pub in ["p1", "p2"] {
            let mine = intervals.filter { $0.publications.contains(pub) && $0.start < $0.end }
            let issues = a.catalog.issues.filter { $0.publicationId == pub }
            let paid = mine.filter(\.service)
            // E13: the items beginning a stretch of paid or granted service after none.
            let starters = paid.filter { i in i.start <= a.now && !paid.contains { $0.start < i.start && i.start <= $0.end } }
            for issue in issues where issue.publishedAt <= a.now {  // a retraction set aside (reports.md)
                let inside = mine.filter { $0.start <= issue.publishedAt && issue.publishedAt < $0.end }
                let unlocking = starters.filter { s in
                    issue.publishedAt <= s.start && !issues.contains {
                        $0.publishedAt <= s.start && ($0.publishedAt, $0.id) > (issue.publishedAt, issue.id)
                    }
                }
                if let decision = first(inside + unlocking + (bought[issue.ref] ?? [])) { out[issue.ref] = decision }
            }
        }
        return out
    }
}

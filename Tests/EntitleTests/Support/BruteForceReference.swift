import Entitle
import IssueCatalog
import Wire

/// An independent, slow statement of E3, E5–E16: every interval is checked for every issue.
/// No merging of descriptions (property inputs have unique keys), no binary search.
enum BruteForceReference {
    struct Interval {
        var publications: [String]; var start: Instant; var end: Instant
        /// Paid or free service; false for grace (E8), which entitles but unlocks nothing (E13).
        var service = true
    }

    static func entitled(_ a: RandomAccount) -> Set<IssueRef> {
        let products = Dictionary(uniqueKeysWithValues: a.catalog.products.map { ($0.id, $0) })
        let txs = a.transactions.filter { $0.environment == .production || a.policy.acceptSandbox }
        var intervals: [Interval] = []
        var purchased: Set<IssueRef> = []
        func grants(_ productId: String) -> [String] { products[productId]?.grants ?? [] }

        let subscriptionIds = Set(txs.filter { products[$0.productId]?.kind == .autoRenewable }
            .map { "\($0.environment)|\($0.originalTransactionId)" })
        for sub in subscriptionIds {
            let list = txs.filter { "\($0.environment)|\($0.originalTransactionId)" == sub }
                .sorted { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
            // E8: every transaction ends the subscription somewhere, refunded ones included.
            var ended: [(end: Instant, product: String)] = []
            var serves = false
            for (i, t) in list.enumerated() {
                guard let e = t.expiresDate else { continue }
                var end = e
                if t.isUpgraded { end = min(t.revocationDate ?? (i + 1 < list.count ? list[i + 1].purchaseDate : e), e) }
                ended.append((end, t.productId))
                if !t.isUpgraded && t.revocationDate != nil { continue }
                intervals.append(Interval(publications: grants(t.productId), start: t.purchaseDate, end: end))
                serves = true
            }
            let renewal = a.renewals.first { "\($0.environment)|\($0.originalTransactionId)" == sub }
            guard serves, let renewal, let last = ended.max(by: { $0.end < $1.end }) else { continue }
            var appleGives = false
            if let g = renewal.gracePeriodExpiresDate {
                if let lapse = ended.filter({ $0.end <= g }).max(by: { $0.end < $1.end }) {
                    intervals.append(Interval(publications: grants(lapse.product), start: lapse.end, end: g, service: false))
                }
                appleGives = g > last.end
            }
            if !appleGives, renewal.isInBillingRetry || renewal.expirationIntent == .billing, a.policy.graceDays > 0 {
                intervals.append(Interval(publications: grants(last.product), start: last.end,
                                          end: last.end.adding(milliseconds: Int64(a.policy.graceDays) * 86_400_000),
                                          service: false))
            }
        }
        for pub in ["p1", "p2"] {
            var cursor = Instant.distantPast
            for t in txs.filter({ products[$0.productId]?.kind == .nonRenewing && $0.revocationDate == nil
                                   && grants($0.productId).contains(pub) })
                .sorted(by: { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }) {
                let start = max(t.purchaseDate, cursor)
                let end = products[t.productId]!.duration!.added(to: start)
                intervals.append(Interval(publications: [pub], start: start, end: end))
                cursor = max(cursor, end)
            }
        }
        for t in txs where t.revocationDate == nil {
            switch products[t.productId]?.kind {
            case .free?: intervals.append(Interval(publications: grants(t.productId), start: t.purchaseDate, end: .distantFuture))
            case .issue?: if let ref = products[t.productId]?.issue { purchased.insert(ref) }
            default: break
            }
        }

        var out: Set<IssueRef> = []
        for pub in ["p1", "p2"] {
            let mine = intervals.filter { $0.publications.contains(pub) && $0.start < $0.end }
            let issues = a.catalog.issues.filter { $0.publicationId == pub }
            // E13: where paid service begins after none (grace neither begins nor continues one).
            let paid = mine.filter(\.service)
            let starts = paid.map(\.start).filter { s in s <= a.now && !paid.contains { $0.start < s && s <= $0.end } }
            for issue in issues where issue.retractedAt == nil && issue.publishedAt <= a.now {
                let inside = mine.contains { $0.start <= issue.publishedAt && issue.publishedAt < $0.end }
                let unlocked = starts.contains { s in
                    issue.publishedAt <= s && !issues.contains {
                        $0.publishedAt <= s && ($0.publishedAt, $0.id) > (issue.publishedAt, issue.id)
                    }
                }
                if issue.free || purchased.contains(issue.ref) || inside || unlocked { out.insert(issue.ref) }
            }
        }
        return out
    }
}

import IssueCatalog
import Wire

/// E10: non-renewing purchases entitle `[start, start + duration)` in calendar arithmetic (UTC);
/// purchases of products that grant the same publication stack, so a purchase made before the
/// previous one ends starts when it ends. Stacking is per publication: a bundle stacks separately
/// on each publication it grants.
enum NonRenewingStack {
    struct Purchase {
        var purchaseDate: Instant
        var transactionId: String
        var duration: ISODuration?
        /// Its position in the account's transaction table, and its product's number.
        var transaction: Int
        var product: Int
    }

    /// `purchases` must be unrevoked, in any order. A product without a duration (an invalid
    /// catalog entry) entitles nothing and does not stack.
    static func periods(_ purchases: [Purchase]) -> [ActivePeriod] { stacked(purchases).map(\.period) }

    /// The same periods, each with the purchase it comes from.
    static func stacked(_ purchases: [Purchase]) -> [(period: ActivePeriod, purchase: Purchase)] {
        var out: [(period: ActivePeriod, purchase: Purchase)] = []
        var previousEnd = Instant.distantPast
        for p in purchases.sorted(by: { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }) {
            guard let duration = p.duration else { continue }
            let start = max(p.purchaseDate, previousEnd)
            let end = duration.added(to: start)
            out.append((ActivePeriod(start: start, end: end), p))
            previousEnd = max(previousEnd, end)
        }
        return out
    }
}

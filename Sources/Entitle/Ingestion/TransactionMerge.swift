import IssueCatalog
import Wire

/// E1: merging two descriptions of the same purchase (same store, environment and transactionId), or two
/// renewal infos of the same subscription. The store calls this inside its write transaction and
/// the engine calls it on its own input, so arrival order never matters.
///
/// The rule, chosen so that `merge` is commutative, associative and idempotent (a join):
/// - **What can change** about a purchase — its revocation (date, reason, kind, percentage), its expiry (a renewal
///   date extension moves it), its product, purchase date, ownership and source — is taken as a
///   whole from the *newer* description: the one with the later `observedAt` (a JWS `signedDate`,
///   the time a receipt was verified; a description without one is the oldest). So a refund is kept
///   until a newer description (a REFUND_REVERSED, a later receipt) shows it reversed.
///   Between descriptions observed at the same instant, the revoked one wins (a refund is never
///   lost to a tie); remaining ties are broken by the values themselves, so the result never
///   depends on argument order.
/// - E25: a period the store reported wins over one the gateway built (`periodBuilt`) whichever is
///   newer: the purchase and expiry dates come from a reported description when there is one. The
///   merged description keeps the newer `observedAt`, not the reported dates' own, so with two
///   reported descriptions of different dates and a built one between them in time, the dates can
///   depend on the order they arrived in (an order's reported period does not change, so both
///   reported descriptions normally carry the same dates).
/// - `isUpgraded` only ever becomes true: an upgrade is not undone (appstore.md).
/// - Facts that never change for one purchase but that some sources leave out (web order line item,
///   subscription group, original purchase date, account token, offer) are filled in from whichever
///   description has them; conflicting values resolve to the greater one, deterministically.
public enum TransactionMerge {
    public static func merge(_ stored: Transaction, _ incoming: Transaction) -> Transaction {
        var result = precedes(stored, incoming) ? incoming : stored
        if stored.periodBuilt != incoming.periodBuilt {
            let reported = stored.periodBuilt ? incoming : stored
            result.purchaseDate = reported.purchaseDate
            result.expiresDate = reported.expiresDate
            result.periodBuilt = false
        }
        result.isUpgraded = stored.isUpgraded || incoming.isUpgraded
        result.originalPurchaseDate = greater(stored.originalPurchaseDate, incoming.originalPurchaseDate)
        result.webOrderLineItemId = greater(stored.webOrderLineItemId, incoming.webOrderLineItemId)
        result.subscriptionGroup = greater(stored.subscriptionGroup, incoming.subscriptionGroup)
        result.appAccountToken = greater(stored.appAccountToken, incoming.appAccountToken)
        result.offer = greater(stored.offer?.rawValue, incoming.offer?.rawValue).flatMap(OfferKind.init(rawValue:))
        return result
    }

    /// Renewal info is mutable state: the newer description wins whole (ties as above, a
    /// billing-retry description before a plain one, then by value) — except the grace-period
    /// expiry, which is a fact once the App Store has granted it: the latest one seen is kept, so
    /// that issues published in grace stay entitled when the retry later fails (E8).
    ///
    /// The latest state still wins: when the newer description is in billing retry, the grace ran
    /// at most until that description was observed, unless it carries a later grace itself. So a
    /// subscription seen on hold (Google's `ON_HOLD`: billing retry without grace, googleplay.md's
    /// state table, E9) before its last grace expiry is in billing retry from then, not in grace,
    /// and serves nothing more; issues published while the grace ran stay entitled. The cut is
    /// taken from the newer description's own observation, so merging a result again with what
    /// it came from changes nothing (an older grace is cut again at the same instant). A grace
    /// description arriving after both a hold and a later one that ended the retry is not cut;
    /// Google's descriptions are fetched as they are observed, so that order does not arise there.
    public static func merge(_ stored: RenewalInfo, _ incoming: RenewalInfo) -> RenewalInfo {
        var result = renewalKey(stored).lexicographicallyPrecedes(renewalKey(incoming)) ? incoming : stored
        var grace = greater(stored.gracePeriodExpiresDate, incoming.gracePeriodExpiresDate)
        if result.isInBillingRetry, let seen = result.observedAt, let latest = grace {
            // E8/E9: the newest state says how long the grace ran; a grace it carries itself (of
            // either description observed at that instant, so argument order never matters) stands.
            let own = [stored, incoming].filter { $0.observedAt == seen }.compactMap(\.gracePeriodExpiresDate).max()
            grace = min(latest, max(seen, own ?? seen))
        }
        result.gracePeriodExpiresDate = grace
        return result
    }

    /// Merges any number of descriptions: duplicates by key collapse into one, in key order.
    /// Sorts positions rather than the (large) values, then folds runs of equal keys.
    public static func mergeAll(_ transactions: [Transaction]) -> [Transaction] {
        // Comparing whole values would copy them (and retain their strings) on every comparison.
        let sandbox = transactions.map { $0.environment != .production }
        let stores = transactions.map(\.store)
        let ids = transactions.map(\.transactionId)
        let order = transactions.indices.sorted {
            if sandbox[$0] != sandbox[$1] { return !sandbox[$0] }
            if stores[$0] != stores[$1] { return stores[$0] < stores[$1] }
            return ids[$0] < ids[$1]
        }
        var out: [Transaction] = []
        out.reserveCapacity(transactions.count)
        for i in order {
            let t = transactions[i]
            if let last = out.last, last.key == t.key {
                out[out.count - 1] = merge(last, t)
            } else {
                out.append(t)
            }
        }
        return out
    }

    public static func mergeAll(_ renewals: [RenewalInfo]) -> [RenewalInfo] {
        var byKey: [SubscriptionKey: RenewalInfo] = [:]
        for r in renewals {
            let key = r.subscriptionKey
            if let seen = byKey[key] { byKey[key] = merge(seen, r) } else { byKey[key] = r }
        }
        return byKey.values.sorted { $0.subscriptionKey < $1.subscriptionKey }
    }

    /// True when `a` yields to `b`: a strict total order over the fields taken whole.
    private static func precedes(_ a: Transaction, _ b: Transaction) -> Bool {
        transactionKey(a).lexicographicallyPrecedes(transactionKey(b))
    }

    private static func transactionKey(_ t: Transaction) -> [OrderKey] {
        [.instant(t.observedAt), .flag(t.revocationDate != nil), .instant(t.revocationDate),
         .int(t.revocationReason.map(Int64.init)), .text(t.revocationKind?.rawValue),
         .int(t.revocationPercentage.map(Int64.init)), .instant(t.expiresDate), .text(t.productId),
         .instant(t.purchaseDate), .text(t.originalTransactionId), .text(t.ownership.rawValue),
         .text(t.source.rawValue), .flag(!t.periodBuilt)]
    }

    private static func renewalKey(_ r: RenewalInfo) -> [OrderKey] {
        [.instant(r.observedAt), .flag(r.isInBillingRetry), .flag(!r.autoRenewStatus), .int(r.expirationIntent.map { Int64($0.rawValue) }),
         .text(r.productId), .text(r.autoRenewProductId), .int(r.priceConsentStatus.map(Int64.init)),
         .instant(r.pausedAt), .instant(r.resumesAt), .text(r.source.rawValue)]
    }

    private static func greater<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        switch (a, b) {
        case let (x?, y?): return max(x, y)
        case let (x?, nil): return x
        case let (nil, y): return y
        }
    }
}

/// One component of a merge ordering; `nil` sorts first ("absent is oldest").
private enum OrderKey: Comparable {
    case instant(Instant?), flag(Bool), int(Int64?), text(String?)

    static func < (a: OrderKey, b: OrderKey) -> Bool {
        switch (a, b) {
        case let (.instant(x), .instant(y)): return less(x, y)
        case let (.flag(x), .flag(y)): return !x && y
        case let (.int(x), .int(y)): return less(x, y)
        case let (.text(x), .text(y)): return less(x, y)
        default: return false
        }
    }

    private static func less<T: Comparable>(_ x: T?, _ y: T?) -> Bool {
        switch (x, y) {
        case let (x?, y?): return x < y
        case (nil, .some): return true
        default: return false
        }
    }
}

import IssueCatalog
import Wire

/// E5–E9 for one auto-renewable subscription: the intervals its transactions entitle.
struct SubscriptionTimeline {
    let key: SubscriptionKey
    /// Merged (E1); `positions` index it in (purchaseDate, transactionId) order.
    let table: [Transaction]
    let positions: [Int]
    let renewal: RenewalInfo?
    private(set) var intervals: [ProductInterval] = []
    /// E8's `lastExpiresDate`: the latest end among all the transactions, refunded ones included
    /// (an upgraded one ends at its cut, E7, as does one cut by E24 or a pause, E27); nil when none entitles, for a subscription whose
    /// transactions are all refunded has no grace.
    private(set) var lastExpires: Instant?
    /// The grace interval in force after `lastExpires`, from the App Store or the policy (E8).
    private(set) var currentGrace: ActivePeriod?
    /// Whether `currentGrace` is the gateway's own (the policy's days), not the App Store's.
    private(set) var currentGraceIsOwn = false

    /// `product` gives the catalog number of a product id (nil: unknown).
    init(key: SubscriptionKey, table: [Transaction], positions: [Int], renewal: RenewalInfo?,
         policy: EntitlementPolicy, product: (String) -> Int?) {
        self.key = key
        self.table = table
        self.positions = positions
        self.renewal = renewal
        intervals.reserveCapacity(positions.count + 1)
        var lastEnd: (instant: Instant, product: Int?, transaction: Int)?
        var entitles = false
        var lastProductId: String?
        var number: Int?
        // Borrowed through a buffer: reading a transaction from the array would copy it.
        table.withUnsafeBufferPointer { table in
        for (i, position) in positions.enumerated() {
            guard let expires = table[position].expiresDate else { continue }  // E5: no store expiry, no period
            if table[position].productId != lastProductId {
                lastProductId = table[position].productId
                number = product(table[position].productId)
            }
            let nextPurchase = i + 1 < positions.count ? table[positions[i + 1]].purchaseDate : nil
            let t = Moment(table, position)
            let end: Instant
            if var entitled = Self.entitlingEnd(of: t, expires: expires, nextPurchase: nextPurchase) {
                // E27: nothing from the pause on, whatever a transaction from before it says.
                if let pausedAt = renewal?.pausedAt, t.purchaseDate < pausedAt { entitled = min(entitled, pausedAt) }
                end = entitled
                entitles = true
                intervals.append(ProductInterval(product: number, period: ActivePeriod(start: t.purchaseDate, end: end),
                                                 kind: .service, transaction: position))
                if t.cutReturnedMoney, end < expires {
                    // E24, E20: after a refunded cut, what it would have entitled is `refunded`.
                    intervals.append(ProductInterval(product: number, period: ActivePeriod(start: end, end: expires),
                                                     kind: .refundedAfterCut))
                }
            } else {
                // E6: void, yet its expiry still counts as the subscription's end (E8), so that a
                // refund never widens a grace interval backwards over the refunded period.
                end = expires
                intervals.append(ProductInterval(product: number,
                                                 period: ActivePeriod(start: t.purchaseDate, end: expires), kind: .void))
            }
            if lastEnd.map({ end > $0.instant }) ?? true { lastEnd = (end, number, position) }
        }
        }
        if entitles, let lastEnd {
            lastExpires = lastEnd.instant
            addGrace(lastProduct: lastEnd.product, lastTransaction: lastEnd.transaction, policy: policy)
        }
    }

    /// The few small fields of a transaction the timeline reads.
    private struct Moment {
        var purchaseDate: Instant
        var revocationDate: Instant?
        var isUpgraded: Bool
        /// E24: the revocation is a cut, and whether the store returned money with it.
        var isCut: Bool
        var cutReturnedMoney: Bool

        init(_ t: UnsafeBufferPointer<Transaction>, _ i: Int) {
            purchaseDate = t[i].purchaseDate; revocationDate = t[i].revocationDate; isUpgraded = t[i].isUpgraded
            isCut = t[i].isCut
            cutReturnedMoney = isCut && (t[i].revocationKind?.returnedMoney ?? false)
        }
    }

    /// The latest transaction (by purchase); a timeline always has one.
    var latest: Transaction { table[positions[positions.count - 1]] }

    /// Transactions after the first, less those that replace an upgraded transaction (E7).
    var renewals: Int {
        var count = 0
        table.withUnsafeBufferPointer { table in
            for i in positions.indices.dropFirst() where !table[positions[i - 1]].isUpgraded { count += 1 }
        }
        return count
    }

    /// E6: a revoked transaction that is not an upgrade entitles nothing (nil), unless E24 makes
    /// its revocation a cut: it then ends at its revocation date. E7: an upgraded one is cut at its
    /// revocation date, else at the next transaction's purchase. Never past its expiry.
    private static func entitlingEnd(of t: Moment, expires: Instant, nextPurchase: Instant?) -> Instant? {
        if t.isUpgraded {
            let cut = t.revocationDate ?? nextPurchase ?? expires
            return min(cut, expires)
        }
        guard let revoked = t.revocationDate else { return expires }
        return t.isCut ? min(revoked, expires) : nil
    }

    /// E8. The App Store's grace-period expiry is a fact once seen (the merge keeps the latest one),
    /// so issues published in grace stay entitled when the retry later fails. A grace expiry that
    /// belongs to an earlier lapse is placed after the expiry it extended.
    private mutating func addGrace(lastProduct: Int?, lastTransaction: Int, policy: EntitlementPolicy) {
        guard let renewal, let lastExpires else { return }
        if let appleGrace = renewal.gracePeriodExpiresDate {
            let lapse = appleGraceStart(before: appleGrace)
            if let lapse, lapse.instant < appleGrace {
                let period = ActivePeriod(start: lapse.instant, end: appleGrace)
                intervals.append(ProductInterval(product: lapse.product, period: period, kind: .grace,
                                                 transaction: lapse.transaction))
                if lapse.instant == lastExpires { currentGrace = period }
            }
            if appleGrace > lastExpires { return }  // the App Store gives one: the policy adds none
        }
        // The gateway's own grace, while billing retry is on or once it failed for billing.
        let billingTrouble = renewal.isInBillingRetry || renewal.expirationIntent == .billing
        guard billingTrouble, policy.graceMilliseconds > 0 else { return }
        let period = ActivePeriod(start: lastExpires, end: lastExpires.adding(milliseconds: policy.graceMilliseconds))
        intervals.append(ProductInterval(product: lastProduct, period: period, kind: .grace, transaction: lastTransaction))
        currentGrace = period
        currentGraceIsOwn = true
    }

    /// The latest end (a refunded transaction's expiry included, E8) at or before a grace expiry,
    /// and the product that lapsed there.
    private func appleGraceStart(before grace: Instant) -> (instant: Instant, product: Int?, transaction: Int?)? {
        var best: (instant: Instant, product: Int?, transaction: Int?)?
        for interval in intervals where interval.kind == .service || interval.kind == .void {
            let end = interval.period.end
            if end <= grace, best.map({ end > $0.instant }) ?? true { best = (end, interval.product, interval.transaction) }
        }
        return best
    }
}

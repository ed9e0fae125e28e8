import IssueCatalog

/// E5–E9 for one auto-renewable subscription: the intervals its transactions entitle.
struct SubscriptionTimeline {
    let key: SubscriptionKey
    /// Merged (E1), sorted by (purchaseDate, transactionId).
    let transactions: [Transaction]
    let renewal: RenewalInfo?
    private(set) var intervals: [ProductInterval] = []
    /// The end of the latest entitling transaction (E8's "last expiresDate"); nil if none entitles.
    private(set) var lastExpires: Instant?
    /// The grace interval in force after `lastExpires`, from the App Store or the policy (E8).
    private(set) var currentGrace: ActivePeriod?

    init(key: SubscriptionKey, transactions: [Transaction], renewal: RenewalInfo?, policy: EntitlementPolicy) {
        self.key = key
        self.transactions = transactions
        self.renewal = renewal
        var lastServiceTransaction: Transaction?
        for (i, t) in transactions.enumerated() {
            guard let expires = t.expiresDate else { continue }  // E5: no store expiry, no period
            let next = i + 1 < transactions.count ? transactions[i + 1] : nil
            let entitles = Self.entitlingEnd(of: t, expires: expires, next: next)
            guard let end = entitles else {
                intervals.append(ProductInterval(productId: t.productId,
                                                 period: ActivePeriod(start: t.purchaseDate, end: expires), kind: .void))
                continue
            }
            intervals.append(ProductInterval(productId: t.productId,
                                             period: ActivePeriod(start: t.purchaseDate, end: end), kind: .service))
            if lastExpires.map({ end > $0 }) ?? true {
                lastExpires = end
                lastServiceTransaction = t
            }
        }
        if let last = lastServiceTransaction { addGrace(after: last, policy: policy) }
    }

    /// E6: a revoked transaction that is not an upgrade entitles nothing (nil). E7: an upgraded one
    /// is cut at its revocation date, else at the next transaction's purchase, never past its expiry.
    private static func entitlingEnd(of t: Transaction, expires: Instant, next: Transaction?) -> Instant? {
        if t.isUpgraded {
            let cut = t.revocationDate ?? next?.purchaseDate ?? expires
            return min(cut, expires)
        }
        return t.revocationDate == nil ? expires : nil
    }

    /// E8. The App Store's grace-period expiry is a fact once seen (the merge keeps the latest one),
    /// so issues published in grace stay entitled when the retry later fails. A grace expiry that
    /// belongs to an earlier lapse is placed after the expiry it extended.
    private mutating func addGrace(after last: Transaction, policy: EntitlementPolicy) {
        guard let renewal, let lastExpires else { return }
        if let appleGrace = renewal.gracePeriodExpiresDate {
            let lapse = appleGraceStart(before: appleGrace)
            if let lapse, lapse.instant < appleGrace {
                let period = ActivePeriod(start: lapse.instant, end: appleGrace)
                intervals.append(ProductInterval(productId: lapse.productId, period: period, kind: .grace))
                if lapse.instant == lastExpires { currentGrace = period }
            }
            if appleGrace > lastExpires { return }  // the App Store gives one: the policy adds none
        }
        // The gateway's own grace, while billing retry is on or once it failed for billing.
        let billingTrouble = renewal.isInBillingRetry || renewal.expirationIntent == .billing
        guard billingTrouble, policy.graceMilliseconds > 0 else { return }
        let period = ActivePeriod(start: lastExpires, end: lastExpires.adding(milliseconds: policy.graceMilliseconds))
        intervals.append(ProductInterval(productId: last.productId, period: period, kind: .grace))
        currentGrace = period
    }

    /// The latest service expiry at or before a grace expiry, and the product that lapsed there.
    private func appleGraceStart(before grace: Instant) -> (instant: Instant, productId: String)? {
        var best: (instant: Instant, productId: String)?
        for interval in intervals where interval.kind == .service {
            let end = interval.period.end
            if end <= grace, best.map({ end > $0.instant }) ?? true { best = (end, interval.productId) }
        }
        return best
    }
}

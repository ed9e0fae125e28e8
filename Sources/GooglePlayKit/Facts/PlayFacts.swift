import Entitle
import Foundation
import IssueCatalog
import Wire

/// Google Play's answers as store-neutral facts (E23): an order is a transaction, the root of the
/// `linkedPurchaseToken` chain is its `originalTransactionId`, the environment is `sandbox` for a
/// license tester's purchase. Pure: the client fetched, this only maps.
public enum PlayFacts {
    /// Orders that charged (or charged and were refunded): pending, canceled (a declined attempt)
    /// and unspecified orders entitle nothing.
    static let chargedStates: Set<PlayOrderState> = [.processed, .pendingRefund, .partiallyRefunded, .refunded]

    /// A subscription chain, newest token first (`chain[i + 1]` is the token `chain[i]` names as its
    /// `linkedPurchaseToken`), as transactions of one subscription and its renewal info.
    ///
    /// E25: every charged order entitles its service period (the Orders API's, or the one
    /// `PlaySnapshotPeriods` built from snapshots for an order it did not answer). A token another
    /// token replaced is superseded: its orders are cut at the new token's `startTime` (E7's
    /// `isUpgraded` with the cut as its revocation date), never counted twice, whatever Google still
    /// answers for it. E24: an order `REFUNDED`, or one in `voided`, is void from its refund time.
    ///
    /// E24/E25: a revoke without a voided order (the newest token expired by the developer, or a
    /// `SUBSCRIPTION_REVOKED` notification) cuts the orders still running at `revokedAt` (the
    /// gateway passes the notification's event time, else the instant it first saw the revoked
    /// state: `PlaySnapshotPeriods.revocation`); without one, where Google ended the subscription
    /// (`expiryTime`), else at `observedAt`.
    ///
    /// E1: a void the gateway stored before (`kept`) stays, whatever this fetch shows.
    public static func subscription(chain: [PlayPurchaseSnapshot], voided: [String: Instant] = [:], revokedAt: Instant? = nil,
                                    kept: PlayKeptOrders = PlayKeptOrders([]),
                                    source: TransactionSource, observedAt: Instant) -> (transactions: [Transaction], renewal: RenewalInfo?) {
        guard let newest = chain.first, let root = chain.last?.token else { return ([], nil) }
        let revocationCut = revokedAt ?? (newest.purchase.isRevoked ? newest.purchase.line?.expiryTime ?? observedAt : nil)
        let environment: StoreEnvironment = newest.purchase.isTest ? .sandbox : .production
        let account = chain.lazy.compactMap(\.purchase.obfuscatedExternalAccountId).first
        var transactions: [Transaction] = []
        var seen: Set<String> = []
        for (index, snapshot) in chain.enumerated() {
            let cut = index > 0 ? chain[index - 1].purchase.startTime : nil
            for order in snapshot.orders where chargedStates.contains(order.state) && !seen.contains(order.orderId) {
                guard let start = order.servicePeriodStart, let end = order.servicePeriodEnd, start < end else { continue }
                seen.insert(order.orderId)
                var t = Transaction(store: .googlePlay, environment: environment, transactionId: order.orderId,
                                    originalTransactionId: root,
                                    productId: order.productId ?? snapshot.purchase.line?.productId ?? "",
                                    purchaseDate: start, originalPurchaseDate: chain.last?.purchase.startTime,
                                    expiresDate: end, offer: offer(order.offerPhase), appAccountToken: account,
                                    periodBuilt: order.periodFromSnapshots, source: source, observedAt: observedAt)
                if let refunded = voided[order.orderId] ?? (order.state == .refunded ? order.refundTime ?? observedAt : nil) {
                    // E24: a voided order or one REFUNDED is E6's void.
                    t.revocationDate = refunded
                    t.revocationReason = order.refundIsChargeback ? 1 : 0
                    t.revocationKind = .void
                } else if let void = kept.void(of: order.orderId) {
                    t.revocationDate = void.revocationDate
                    t.revocationReason = void.revocationReason
                    t.revocationKind = .void
                } else if index == 0, let revoked = revocationCut, end > revoked {
                    t.revocationDate = max(revoked, start)
                    t.revocationKind = .revokedWithRefund
                } else if let cut, end > cut {
                    // E25 → E7: the replaced token's service ends where the new token's begins.
                    t.isUpgraded = true
                    t.revocationDate = max(cut, start)
                }
                transactions.append(t)
            }
        }
        return (transactions, renewal(newest, root: root, environment: environment, source: source, observedAt: observedAt))
    }

    /// The newest token's state as renewal info (googleplay.md's state table): grace is Google's
    /// `expiryTime` while `IN_GRACE_PERIOD` (E8), on hold is billing retry without grace (E9).
    static func renewal(_ newest: PlayPurchaseSnapshot, root: String, environment: StoreEnvironment,
                        source: TransactionSource, observedAt: Instant) -> RenewalInfo? {
        let purchase = newest.purchase
        guard let line = purchase.line else { return nil }
        let retrying = purchase.state == .onHold || purchase.state == .inGracePeriod
        var intent: ExpirationIntent?
        if purchase.state == .canceled || purchase.state == .expired {
            switch purchase.cancellation {
            case .user: intent = .voluntary
            case .system: intent = .billing
            case .developer, .replacement: intent = .other
            case nil: intent = purchase.state == .expired ? .other : nil
            }
        }
        let renewing = (line.autoRenewEnabled ?? false) && [.active, .inGracePeriod, .onHold, .paused].contains(purchase.state)
        // E27: a pause starts where the last paid period ends and lasts until Google resumes it.
        let paused = purchase.state == .paused
        let paidEnd = newest.orders.filter { chargedStates.contains($0.state) }.compactMap(\.servicePeriodEnd).max()
        return RenewalInfo(store: .googlePlay, environment: environment, originalTransactionId: root, productId: line.productId,
                           autoRenewStatus: renewing, autoRenewProductId: line.productId, expirationIntent: intent,
                           isInBillingRetry: retrying,
                           gracePeriodExpiresDate: purchase.state == .inGracePeriod ? line.expiryTime : nil,
                           pausedAt: paused ? paidEnd ?? line.expiryTime ?? observedAt : nil,
                           resumesAt: paused ? purchase.autoResumeTime : nil,
                           source: source, observedAt: observedAt)
    }

    /// A one-time product (E14): one transaction keyed by its order, owned as a single purchase of
    /// its token. Pending and canceled purchases entitle nothing (nil).
    public static func product(_ purchase: PlayProductPurchase, productId: String, token: String, voidedAt: Instant?,
                               source: TransactionSource, observedAt: Instant) -> Transaction? {
        guard purchase.state == .purchased else { return nil }
        var t = Transaction(store: .googlePlay, environment: purchase.isTest ? .sandbox : .production,
                            // Test purchases have historically come without an order id: the token names them.
                            transactionId: purchase.orderId ?? token, originalTransactionId: token, productId: productId,
                            purchaseDate: purchase.purchaseTime, appAccountToken: purchase.obfuscatedExternalAccountId,
                            source: source, observedAt: observedAt)
        if let voidedAt { t.revocationDate = voidedAt; t.revocationReason = 0; t.revocationKind = .void }
        return t
    }

    /// googleplay.md "Mapping": free trial .1, intro .2.
    static func offer(_ phase: PlayOfferPhase?) -> OfferKind? {
        switch phase {
        case .freeTrial: .freeTrial
        case .introductory: .introductory
        default: nil
        }
    }

    /// The phase `offer` maps from (nil: base price or unknown).
    static func offerPhase(_ offer: OfferKind?) -> PlayOfferPhase? {
        [PlayOfferPhase.freeTrial, .introductory].first { self.offer($0) == offer && offer != nil }
    }
}

import Foundation
import Wire

/// What the gateway saw of one subscription token at one instant (E25): the fields of Google's
/// `subscriptionsv2` answer that periods are built from when the Orders API refuses
/// (`PlaySnapshotPeriods`). The gateway keeps one for every fetch that says something new.
public struct PlaySnapshot: Sendable, Equatable {
    public var observedAt: Instant
    public var state: PlaySubscriptionState
    public var latestOrderId: String?
    public var expiryTime: Instant?
    public var startTime: Instant?
    public var productId: String?
    public var linkedPurchaseToken: String?
    public var cancellation: PlayCancellation?
    /// E25: the `SUBSCRIPTION_REVOKED` notification's `eventTimeMillis`, when that notification
    /// made the gateway look.
    public var revokedAt: Instant?

    public init(observedAt: Instant, state: PlaySubscriptionState, latestOrderId: String? = nil, expiryTime: Instant? = nil,
                startTime: Instant? = nil, productId: String? = nil, linkedPurchaseToken: String? = nil,
                cancellation: PlayCancellation? = nil, revokedAt: Instant? = nil) {
        self.observedAt = observedAt; self.state = state; self.latestOrderId = latestOrderId; self.expiryTime = expiryTime
        self.startTime = startTime; self.productId = productId; self.linkedPurchaseToken = linkedPurchaseToken
        self.cancellation = cancellation; self.revokedAt = revokedAt
    }

    /// Google's answer for a token, seen at `observedAt`.
    public init(_ purchase: PlaySubscriptionPurchase, observedAt: Instant, revokedAt: Instant? = nil) {
        self.init(observedAt: observedAt, state: purchase.state, latestOrderId: purchase.line?.latestSuccessfulOrderId,
                  expiryTime: purchase.line?.expiryTime, startTime: purchase.startTime, productId: purchase.line?.productId,
                  linkedPurchaseToken: purchase.linkedPurchaseToken, cancellation: purchase.cancellation, revokedAt: revokedAt)
    }

    /// E24: Google's revoke without a voided order (`PlaySubscriptionState.isRevoke`).
    var isRevoked: Bool { state.isRevoke(cancellation) }
}

import Wire

/// What the gateway saw of one Google Play subscription token when it fetched it (E25):
/// `googleplay_snapshots`, Google's values kept as Google wrote them (`GooglePlayKit` reads them).
public struct PlaySnapshotRecord: Sendable, Equatable {
    public var packageName: String
    public var purchaseToken: String
    public var observedAt: Instant
    /// `subscriptionState`.
    public var state: String
    public var latestOrderId: String?
    public var expiryTime: Instant?
    public var startTime: Instant?
    public var productId: String?
    public var linkedPurchaseToken: String?
    /// `canceledStateContext`'s member name.
    public var cancellation: String?
    /// The `SUBSCRIPTION_REVOKED` notification's event time that made the gateway look.
    public var revokedAt: Instant?

    public init(packageName: String, purchaseToken: String, observedAt: Instant, state: String, latestOrderId: String?,
                expiryTime: Instant?, startTime: Instant?, productId: String?, linkedPurchaseToken: String?,
                cancellation: String?, revokedAt: Instant?) {
        self.packageName = packageName; self.purchaseToken = purchaseToken; self.observedAt = observedAt; self.state = state
        self.latestOrderId = latestOrderId; self.expiryTime = expiryTime; self.startTime = startTime; self.productId = productId
        self.linkedPurchaseToken = linkedPurchaseToken; self.cancellation = cancellation; self.revokedAt = revokedAt
    }

    /// Whether `other` says the same about the same token, whenever it was seen.
    public func saysTheSame(as other: PlaySnapshotRecord) -> Bool {
        var moved = other
        moved.observedAt = observedAt
        return moved == self
    }
}

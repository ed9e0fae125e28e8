import Wire

/// A Google Play purchase the gateway verified and Google has not confirmed as acknowledged (E28).
public struct PendingAcknowledgement: Sendable, Equatable {
    public var packageName: String
    public var purchaseToken: String
    public var productId: String
    /// `subscriptions.acknowledge` or `products.acknowledge`.
    public var isSubscription: Bool
    public var firstSeen: Instant
    public var attempts: Int
    public var nextAttempt: Instant

    public init(packageName: String, purchaseToken: String, productId: String, isSubscription: Bool, firstSeen: Instant,
                attempts: Int = 0, nextAttempt: Instant) {
        self.packageName = packageName; self.purchaseToken = purchaseToken; self.productId = productId
        self.isSubscription = isSubscription; self.firstSeen = firstSeen; self.attempts = attempts; self.nextAttempt = nextAttempt
    }
}

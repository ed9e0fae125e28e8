/// A subscription's identity: (environment, originalTransactionId), like E1's key for transactions.
public struct SubscriptionKey: Hashable, Sendable, Comparable {
    public var environment: AppStoreEnvironment
    public var originalTransactionId: String

    public init(environment: AppStoreEnvironment, originalTransactionId: String) {
        self.environment = environment; self.originalTransactionId = originalTransactionId
    }

    public static func < (a: SubscriptionKey, b: SubscriptionKey) -> Bool {
        (a.environment.rawValue, a.originalTransactionId) < (b.environment.rawValue, b.originalTransactionId)
    }
}

extension Transaction {
    /// The subscription (or single purchase) this transaction belongs to; an account owns it (E4).
    public var subscriptionKey: SubscriptionKey {
        SubscriptionKey(environment: environment, originalTransactionId: originalTransactionId)
    }
}

extension RenewalInfo {
    public var subscriptionKey: SubscriptionKey {
        SubscriptionKey(environment: environment, originalTransactionId: originalTransactionId)
    }
}

import IssueCatalog

/// A subscription's identity: (store, environment, originalTransactionId), like E1's key for
/// transactions.
public struct SubscriptionKey: Hashable, Sendable, Comparable {
    public var store: Store
    public var environment: StoreEnvironment
    public var originalTransactionId: String

    public init(store: Store = .appStore, environment: StoreEnvironment, originalTransactionId: String) {
        self.store = store; self.environment = environment; self.originalTransactionId = originalTransactionId
    }

    public static func < (a: SubscriptionKey, b: SubscriptionKey) -> Bool {
        (a.environment.rawValue, a.store, a.originalTransactionId)
            < (b.environment.rawValue, b.store, b.originalTransactionId)
    }
}

extension Transaction {
    /// The subscription (or single purchase) this transaction belongs to; an account owns it (E4).
    public var subscriptionKey: SubscriptionKey {
        SubscriptionKey(store: store, environment: environment, originalTransactionId: originalTransactionId)
    }
}

extension RenewalInfo {
    public var subscriptionKey: SubscriptionKey {
        SubscriptionKey(store: store, environment: environment, originalTransactionId: originalTransactionId)
    }
}

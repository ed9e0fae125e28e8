import Entitle
import Wire

/// The latest receipt a subscription points to, with its owner, for the status poller.
public struct StoredReceipt: Hashable, Sendable {
    public var subscription: SubscriptionKey
    public var receiptData: String
    public var accountId: String?
    public var updatedAt: Instant

    public init(subscription: SubscriptionKey, receiptData: String, accountId: String?, updatedAt: Instant) {
        self.subscription = subscription; self.receiptData = receiptData; self.accountId = accountId
        self.updatedAt = updatedAt
    }
}

import Entitle
import Wire

/// A subscription the status poller should ask the App Store about.
public struct PollTarget: Hashable, Sendable {
    public var subscription: SubscriptionKey
    public var accountId: String?
    public var latestExpiresDate: Instant?
    public var isInBillingRetry: Bool
    public var receiptData: String?

    public init(subscription: SubscriptionKey, accountId: String?, latestExpiresDate: Instant?,
                isInBillingRetry: Bool, receiptData: String?) {
        self.subscription = subscription; self.accountId = accountId; self.latestExpiresDate = latestExpiresDate
        self.isInBillingRetry = isInBillingRetry; self.receiptData = receiptData
    }
}

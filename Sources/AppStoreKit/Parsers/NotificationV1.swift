import Entitle
import IssueCatalog

/// A version 1 server notification. The type is for logs and metrics; ingesting
/// `unifiedReceipt` is what matters (appstore.md).
public struct NotificationV1: Hashable, Sendable {
    public var notificationType: String
    /// The shared secret as sent; the gateway compares it in constant time (E2).
    public var password: String?
    public var environment: StoreEnvironment?
    public var autoRenewStatus: Bool?
    public var autoRenewProductId: String?
    public var bundleId: String?
    public var unifiedReceipt: VerifyReceiptResponse?

    public init(notificationType: String, password: String?, environment: StoreEnvironment?,
                autoRenewStatus: Bool?, autoRenewProductId: String?, bundleId: String?,
                unifiedReceipt: VerifyReceiptResponse?) {
        self.notificationType = notificationType; self.password = password; self.environment = environment
        self.autoRenewStatus = autoRenewStatus; self.autoRenewProductId = autoRenewProductId
        self.bundleId = bundleId; self.unifiedReceipt = unifiedReceipt
    }
}

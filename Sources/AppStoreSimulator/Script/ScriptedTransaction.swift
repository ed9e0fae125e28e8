import AppStoreKit
import Entitle
import Foundation
import IssueCatalog
import Wire

/// One purchase or renewal of a scripted account history, in the gateway's words. The simulator
/// renders it in verifyReceipt's all-strings layout and as a V2 `JWSTransaction` (appstore.md).
public struct ScriptedTransaction: Sendable, Hashable, Decodable {
    public var transactionId: String
    /// Defaults to `transactionId` (a first purchase).
    public var originalTransactionId: String
    public var productId: String
    public var purchaseDate: Instant
    public var originalPurchaseDate: Instant?
    /// Auto-renewable subscriptions only.
    public var expiresDate: Instant?
    /// A refund (E6) or, with `isUpgraded`, the upgrade's cut (E7).
    public var cancellationDate: Instant?
    /// 1 app issue, 0 other.
    public var cancellationReason: Int?
    /// E24: V2's `revocationType` (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`; absent: a
    /// full refund) and `revocationPercentage` (thousandths of a percent), with a cancellation.
    public var revocationType: String?
    public var revocationPercentage: Int?
    public var isUpgraded: Bool
    public var isTrialPeriod: Bool
    /// StoreKit 2's purchase-time account UUID (E4).
    public var appAccountToken: String?
    public var webOrderLineItemId: String?
    public var subscriptionGroupIdentifier: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var ownershipType: String

    public init(transactionId: String, originalTransactionId: String? = nil, productId: String, purchaseDate: Instant,
                expiresDate: Instant? = nil, cancellationDate: Instant? = nil, cancellationReason: Int? = nil,
                isUpgraded: Bool = false, isTrialPeriod: Bool = false, appAccountToken: String? = nil,
                webOrderLineItemId: String? = nil, subscriptionGroupIdentifier: String? = nil,
                originalPurchaseDate: Instant? = nil, ownershipType: String = "PURCHASED",
                revocationType: String? = nil, revocationPercentage: Int? = nil) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId ?? transactionId
        self.productId = productId
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.isUpgraded = isUpgraded
        self.isTrialPeriod = isTrialPeriod
        self.appAccountToken = appAccountToken
        self.webOrderLineItemId = webOrderLineItemId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.ownershipType = ownershipType
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
    }

    public init(from decoder: any Decoder) throws {
        let f = try ScriptFields(decoder, known: ["transactionId", "originalTransactionId", "productId", "purchaseDate",
                                                  "originalPurchaseDate", "expiresDate", "cancellationDate",
                                                  "cancellationReason", "isUpgraded", "isTrialPeriod", "appAccountToken",
                                                  "webOrderLineItemId", "subscriptionGroupIdentifier", "ownershipType",
                                                  "revocationType", "revocationPercentage"])
        self.init(transactionId: try f.required("transactionId"), originalTransactionId: try f.optional("originalTransactionId"),
                  productId: try f.required("productId"), purchaseDate: try f.requiredInstant("purchaseDate"),
                  expiresDate: try f.instant("expiresDate"), cancellationDate: try f.instant("cancellationDate"),
                  cancellationReason: try f.optional("cancellationReason"), isUpgraded: try f.optional("isUpgraded") ?? false,
                  isTrialPeriod: try f.optional("isTrialPeriod") ?? false, appAccountToken: try f.optional("appAccountToken"),
                  webOrderLineItemId: try f.optional("webOrderLineItemId"),
                  subscriptionGroupIdentifier: try f.optional("subscriptionGroupIdentifier"),
                  originalPurchaseDate: try f.instant("originalPurchaseDate"),
                  ownershipType: try f.optional("ownershipType") ?? "PURCHASED",
                  revocationType: try f.optional("revocationType"), revocationPercentage: try f.optional("revocationPercentage"))
    }
}

/// Renewal info of one subscription (appstore.md "renewal info").
public struct ScriptedRenewal: Sendable, Hashable, Decodable {
    public var originalTransactionId: String
    public var productId: String
    public var autoRenewStatus: Bool
    public var autoRenewProductId: String?
    /// 1 voluntary, 2 billing, 3 price increase refused, 4 product unavailable, 5 other.
    public var expirationIntent: Int?
    public var isInBillingRetryPeriod: Bool
    public var gracePeriodExpiresDate: Instant?

    public init(originalTransactionId: String, productId: String, autoRenewStatus: Bool = true,
                autoRenewProductId: String? = nil, expirationIntent: Int? = nil, isInBillingRetryPeriod: Bool = false,
                gracePeriodExpiresDate: Instant? = nil) {
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductId = autoRenewProductId
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
    }

    public init(from decoder: any Decoder) throws {
        let f = try ScriptFields(decoder, known: ["originalTransactionId", "productId", "autoRenewStatus", "autoRenewProductId",
                                                  "expirationIntent", "isInBillingRetryPeriod", "gracePeriodExpiresDate"])
        self.init(originalTransactionId: try f.required("originalTransactionId"), productId: try f.required("productId"),
                  autoRenewStatus: try f.optional("autoRenewStatus") ?? true,
                  autoRenewProductId: try f.optional("autoRenewProductId"),
                  expirationIntent: try f.optional("expirationIntent"),
                  isInBillingRetryPeriod: try f.optional("isInBillingRetryPeriod") ?? false,
                  gracePeriodExpiresDate: try f.instant("gracePeriodExpiresDate"))
    }
}

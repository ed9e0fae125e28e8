import IssueCatalog
import Wire

/// Why a subscription expired (appstore.md: expiration_intent / expirationIntent).
public enum ExpirationIntent: Int, Hashable, Sendable {
    case voluntary = 1, billing = 2, priceIncrease = 3, productUnavailable = 4, other = 5
}

/// Renewal info, one per subscription: (store, environment, originalTransactionId)
/// (entitlement-rules.md, Vocabulary).
public struct RenewalInfo: Hashable, Sendable {
    public var store: Store
    public var environment: StoreEnvironment
    public var originalTransactionId: String
    public var productId: String?
    public var autoRenewStatus: Bool
    public var autoRenewProductId: String?
    public var expirationIntent: ExpirationIntent?
    public var isInBillingRetry: Bool
    public var gracePeriodExpiresDate: Instant?
    /// `price_consent_status` / `priceIncreaseStatus`, kept as given.
    public var priceConsentStatus: Int?
    /// E27: the instant a pause began, while the subscription is paused (nil otherwise): it
    /// entitles nothing from then until a resumed transaction starts a new period.
    public var pausedAt: Instant?
    /// E27: when the store will resume a paused subscription, where it says.
    public var resumesAt: Instant?
    /// Apple's `appTransactionId` and `offerPeriod` of the next renewal (appstore.md, Fields
    /// added since 2024). Recorded; no rule reads them.
    public var appTransactionId: String?
    public var offerPeriod: ISODuration?
    public var source: TransactionSource
    public var observedAt: Instant?

    public init(store: Store = .appStore, environment: StoreEnvironment, originalTransactionId: String, productId: String? = nil,
                autoRenewStatus: Bool, autoRenewProductId: String? = nil,
                expirationIntent: ExpirationIntent? = nil, isInBillingRetry: Bool = false,
                gracePeriodExpiresDate: Instant? = nil, priceConsentStatus: Int? = nil,
                pausedAt: Instant? = nil, resumesAt: Instant? = nil, appTransactionId: String? = nil,
                offerPeriod: ISODuration? = nil, source: TransactionSource, observedAt: Instant? = nil) {
        self.store = store; self.environment = environment; self.originalTransactionId = originalTransactionId
        self.productId = productId; self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductId = autoRenewProductId; self.expirationIntent = expirationIntent
        self.isInBillingRetry = isInBillingRetry; self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.priceConsentStatus = priceConsentStatus; self.pausedAt = pausedAt; self.resumesAt = resumesAt
        self.appTransactionId = appTransactionId; self.offerPeriod = offerPeriod
        self.source = source; self.observedAt = observedAt
    }
}

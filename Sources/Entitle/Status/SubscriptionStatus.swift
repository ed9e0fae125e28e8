import IssueCatalog
import Wire

/// E19: a subscription's state. Raw values are the API's spelling.
public enum SubscriptionState: String, Hashable, Sendable, CaseIterable {
    case active, activeAutoRenewOff, gracePeriod, billingRetry, expiredVoluntary, expiredBilling,
         expiredPriceIncrease, expiredProductUnavailable, expiredOther, revoked, paused

    /// The integer part of the entitlement code (E19 table): positive gives access now.
    public var baseCode: Int {
        switch self {
        case .active: return 1
        case .activeAutoRenewOff: return 2
        case .gracePeriod: return 3
        case .billingRetry: return -1
        case .expiredVoluntary: return -2
        case .expiredBilling: return -3
        case .expiredPriceIncrease: return -4
        case .expiredProductUnavailable: return -5
        case .expiredOther: return -6
        case .revoked: return -7
        case .paused: return -8  // E27
        }
    }
}

/// E19: one subscription (all transactions sharing an `originalTransactionId`) as of "now".
public struct SubscriptionStatus: Hashable, Sendable {
    public var originalTransactionId: String
    /// The product of the latest transaction.
    public var productId: String
    public var store: Store
    public var environment: StoreEnvironment
    public var state: SubscriptionState
    /// Sign: access now or not; fraction: the latest transaction's offer (.1 trial, .2 intro,
    /// .3 promotional, .4 offer code, .5 win-back: a fraction of its own beyond E19's table).
    public var entitlementCode: Double
    public var expiresAt: Instant?
    public var willRenew: Bool
    public var renewsInto: String?
    public var gracePeriodExpiresAt: Instant?
    /// Transactions after the first that are not the replacement of an upgraded one.
    public var renewals: Int
    /// Publications the latest transaction's product grants now (E17).
    public var grants: [String]
    public var subscriptionGroup: String?
    /// Whether any transaction of the account in this subscription group used a free trial or
    /// introductory offer (offer eligibility).
    public var trialOrIntroConsumedInGroup: Bool
    public var offer: OfferKind?
    public var latestTransactionId: String

    public init(originalTransactionId: String, productId: String, store: Store, environment: StoreEnvironment,
                state: SubscriptionState, entitlementCode: Double, expiresAt: Instant?, willRenew: Bool,
                renewsInto: String?, gracePeriodExpiresAt: Instant?, renewals: Int, grants: [String],
                subscriptionGroup: String?, trialOrIntroConsumedInGroup: Bool, offer: OfferKind?,
                latestTransactionId: String) {
        self.originalTransactionId = originalTransactionId; self.productId = productId
        self.store = store; self.environment = environment; self.state = state; self.entitlementCode = entitlementCode
        self.expiresAt = expiresAt; self.willRenew = willRenew; self.renewsInto = renewsInto
        self.gracePeriodExpiresAt = gracePeriodExpiresAt; self.renewals = renewals; self.grants = grants
        self.subscriptionGroup = subscriptionGroup
        self.trialOrIntroConsumedInGroup = trialOrIntroConsumedInGroup; self.offer = offer
        self.latestTransactionId = latestTransactionId
    }
}

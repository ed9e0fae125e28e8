import IssueCatalog
import Wire

public enum OfferKind: String, Hashable, Sendable, CaseIterable {
    case freeTrial, introductory, promotional, offerCode, winBack
}

public enum Ownership: String, Hashable, Sendable {
    case purchased, familyShared
}

/// One purchase or renewal, normalised from whatever store and source brought it
/// (entitlement-rules.md, Vocabulary; E23 maps Google Play orders and Stripe invoice lines here).
public struct Transaction: Hashable, Sendable {
    public var store: Store
    public var environment: StoreEnvironment
    public var transactionId: String
    public var originalTransactionId: String
    /// The store's product id (a catalog product's `storeProductId` in `store`).
    public var productId: String
    public var purchaseDate: Instant
    public var originalPurchaseDate: Instant?
    public var expiresDate: Instant?
    public var revocationDate: Instant?
    public var revocationReason: Int?
    /// E24: how it was revoked (nil with a `revocationDate`: a full refund, E6).
    public var revocationKind: RevocationKind?
    /// E24: the share of the price returned, in thousandths of a percent (58000 is 58 %), as
    /// Apple's `revocationPercentage`. Without a `revocationDate` it records a partial refund
    /// that is not a revocation, which changes no entitlement.
    public var revocationPercentage: Int?
    public var isUpgraded: Bool
    public var offer: OfferKind?
    public var ownership: Ownership
    public var webOrderLineItemId: String?
    public var subscriptionGroup: String?
    public var appAccountToken: String?
    /// Apple's `appTransactionId`: one per app download and Apple account (appstore.md, Fields
    /// added since 2024). Recorded; no rule reads it.
    public var appTransactionId: String?
    /// Apple's `offerPeriod`: how long the offer the transaction was bought under lasts, an
    /// ISO 8601 duration (`P1M`).
    public var offerPeriod: ISODuration?
    /// E25: the store did not report this period; the gateway built it from what it saw of the
    /// subscription (Google Play snapshots). A reported period wins over a built one (E1 merge).
    public var periodBuilt: Bool
    public var source: TransactionSource
    /// When the source describing this fact was produced (a JWS `signedDate`, a receipt's
    /// verification time), used to tell newer information from older (E1).
    public var observedAt: Instant?

    public init(store: Store = .appStore, environment: StoreEnvironment, transactionId: String, originalTransactionId: String,
                productId: String, purchaseDate: Instant, originalPurchaseDate: Instant? = nil,
                expiresDate: Instant? = nil, revocationDate: Instant? = nil, revocationReason: Int? = nil,
                revocationKind: RevocationKind? = nil, revocationPercentage: Int? = nil, isUpgraded: Bool = false, offer: OfferKind? = nil, ownership: Ownership = .purchased,
                webOrderLineItemId: String? = nil, subscriptionGroup: String? = nil,
                appAccountToken: String? = nil, appTransactionId: String? = nil, offerPeriod: ISODuration? = nil,
                periodBuilt: Bool = false, source: TransactionSource, observedAt: Instant? = nil) {
        self.store = store; self.environment = environment; self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId; self.productId = productId
        self.purchaseDate = purchaseDate; self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate; self.revocationDate = revocationDate
        self.revocationReason = revocationReason; self.revocationKind = revocationKind
        self.revocationPercentage = revocationPercentage; self.isUpgraded = isUpgraded; self.offer = offer
        self.ownership = ownership; self.webOrderLineItemId = webOrderLineItemId
        self.subscriptionGroup = subscriptionGroup; self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId; self.offerPeriod = offerPeriod; self.periodBuilt = periodBuilt
        self.source = source; self.observedAt = observedAt
    }

    /// E1: a transaction is identified by (store, environment, transactionId).
    public var key: TransactionKey { TransactionKey(store: store, environment: environment, transactionId: transactionId) }
}

/// E1's identity of a transaction: the same id in two stores, or in two environments of one
/// store, names two transactions.
public struct TransactionKey: Hashable, Sendable, Comparable {
    public var store: Store
    public var environment: StoreEnvironment
    public var transactionId: String

    public init(store: Store = .appStore, environment: StoreEnvironment, transactionId: String) {
        self.store = store; self.environment = environment; self.transactionId = transactionId
    }

    public static func < (a: TransactionKey, b: TransactionKey) -> Bool {
        (a.environment.rawValue, a.store, a.transactionId) < (b.environment.rawValue, b.store, b.transactionId)
    }
}

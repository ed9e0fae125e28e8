import IssueCatalog
import Wire

/// App Store environment of a transaction. Part of a transaction's identity (E1, E3).
public enum AppStoreEnvironment: String, Hashable, Sendable, CaseIterable {
    case production, sandbox

    /// Apple's spellings: `Production`/`Sandbox` in verifyReceipt answers and V2 payloads,
    /// `PROD` in V1 notifications (appstore.md). `Xcode` and `LocalTesting` (StoreKit testing)
    /// name no environment the gateway knows.
    public static let spellings: [String: AppStoreEnvironment] = [
        "Production": .production, "PROD": .production, "Sandbox": .sandbox,
    ]

    public init?(appleName: String?) {
        guard let appleName, let environment = Self.spellings[appleName] else { return nil }
        self = environment
    }
}

/// Where a fact came from. Every path proves it came from Apple (E2); the source is kept for
/// support staff and for deciding which of two descriptions of one purchase is newer (E1).
public enum TransactionSource: String, Hashable, Sendable, CaseIterable {
    case verifyReceipt, signedTransaction, notificationV1, notificationV2, statusPoll
}

public enum OfferKind: String, Hashable, Sendable, CaseIterable {
    case freeTrial, introductory, promotional, offerCode, winBack
}

public enum Ownership: String, Hashable, Sendable {
    case purchased, familyShared
}

/// One purchase or renewal, normalised from whatever source brought it (entitlement-rules.md).
public struct Transaction: Hashable, Sendable {
    public var environment: AppStoreEnvironment
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    public var purchaseDate: Instant
    public var originalPurchaseDate: Instant?
    public var expiresDate: Instant?
    public var revocationDate: Instant?
    public var revocationReason: Int?
    public var isUpgraded: Bool
    public var offer: OfferKind?
    public var ownership: Ownership
    public var webOrderLineItemId: String?
    public var subscriptionGroup: String?
    public var appAccountToken: String?
    public var source: TransactionSource
    /// When the source describing this fact was produced (a JWS `signedDate`, a receipt's
    /// verification time), used to tell newer information from older (E1).
    public var observedAt: Instant?

    public init(environment: AppStoreEnvironment, transactionId: String, originalTransactionId: String,
                productId: String, purchaseDate: Instant, originalPurchaseDate: Instant? = nil,
                expiresDate: Instant? = nil, revocationDate: Instant? = nil, revocationReason: Int? = nil,
                isUpgraded: Bool = false, offer: OfferKind? = nil, ownership: Ownership = .purchased,
                webOrderLineItemId: String? = nil, subscriptionGroup: String? = nil,
                appAccountToken: String? = nil, source: TransactionSource, observedAt: Instant? = nil) {
        self.environment = environment; self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId; self.productId = productId
        self.purchaseDate = purchaseDate; self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate; self.revocationDate = revocationDate
        self.revocationReason = revocationReason; self.isUpgraded = isUpgraded; self.offer = offer
        self.ownership = ownership; self.webOrderLineItemId = webOrderLineItemId
        self.subscriptionGroup = subscriptionGroup; self.appAccountToken = appAccountToken
        self.source = source; self.observedAt = observedAt
    }

    /// E1: a transaction is identified by (environment, transactionId).
    public var key: TransactionKey { TransactionKey(environment: environment, transactionId: transactionId) }
}

public struct TransactionKey: Hashable, Sendable, Comparable {
    public var environment: AppStoreEnvironment
    public var transactionId: String

    public init(environment: AppStoreEnvironment, transactionId: String) {
        self.environment = environment; self.transactionId = transactionId
    }

    public static func < (a: TransactionKey, b: TransactionKey) -> Bool {
        (a.environment.rawValue, a.transactionId) < (b.environment.rawValue, b.transactionId)
    }
}

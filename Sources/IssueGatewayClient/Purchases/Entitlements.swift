import Foundation

/// What the account may read, as the gateway answers after every purchase, restore or code
/// (http-api.md, Accounts and entitlements).
public struct Entitlements: Sendable, Hashable, Decodable {
    /// The account's id.
    public var accountId: String
    /// Auto-renewable subscriptions, from every store.
    public var subscriptions: [Subscription]
    /// One-time purchases (single issues, non-renewing periods).
    public var purchases: [Purchase]
    /// Access given without a store: print subscriptions, partners, support (E21).
    public var grants: [Grant]

    enum CodingKeys: String, CodingKey { case accountId, subscriptions, purchases, grants }

    /// Decodes the answer; lists the gateway leaves out are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accountId = try container.decode(String.self, forKey: .accountId)
        subscriptions = try container.list([Subscription].self, forKey: .subscriptions)
        purchases = try container.list([Purchase].self, forKey: .purchases)
        grants = try container.list([Grant].self, forKey: .grants)
    }
}

/// One auto-renewable subscription (one `originalTransactionId`).
public struct Subscription: Sendable, Hashable, Decodable {
    /// The store's id of the subscription.
    public var originalTransactionId: String
    /// The catalog product.
    public var productId: String
    /// `appStore`, `googlePlay` or `stripe`.
    public var store: String?
    /// `production` or `sandbox`.
    public var environment: String?
    /// Where the subscription stands (E27).
    public var state: SubscriptionState
    /// When the current period ends.
    public var expiresAt: Date?
    /// Whether it renews at the end of the period.
    public var willRenew: Bool?
    /// The product it renews into, when that differs.
    public var renewsInto: String?
    /// The end of the store's grace period, while in it.
    public var gracePeriodExpiresAt: Date?
    /// Renewals so far.
    public var renewals: Int?
    /// The publications it grants.
    public var grants: [String]
}

/// One one-time purchase.
public struct Purchase: Sendable, Hashable, Decodable {
    /// The catalog product.
    public var productId: String
    /// The store's transaction id.
    public var transactionId: String
    /// The issue it bought, for a single-issue product.
    public var issue: IssueReference?
    /// `active`, or `revoked` after a refund.
    public var state: SubscriptionState
    /// `appStore`, `googlePlay` or `stripe`.
    public var store: String?
}

/// An issue named by its publication and id.
public struct IssueReference: Sendable, Hashable, Codable {
    /// The publication's id.
    public var publicationId: String
    /// The issue's id.
    public var issueId: String

    /// Names an issue.
    public init(publicationId: String, issueId: String) {
        self.publicationId = publicationId
        self.issueId = issueId
    }
}

/// Access given without a store (E21).
public struct Grant: Sendable, Hashable, Decodable {
    /// The grant's id.
    public var grantId: String
    /// Who gave it (`print`, …).
    public var source: String
    /// The giver's own id for it.
    public var externalId: String
    /// The publications it grants.
    public var publications: [String]
    /// When it starts.
    public var start: Date
    /// When it ends; `nil` while open.
    public var end: Date?
    /// When it was revoked, if it was.
    public var revokedAt: Date?
}

/// The states of E27, open to states the gateway adds later.
public enum SubscriptionState: OpenEnumeration {
    /// Paid and renewing.
    case active
    /// Paid; will not renew.
    case activeAutoRenewOff
    /// The store retries billing and still gives access.
    case gracePeriod
    /// The store retries billing; no access.
    case billingRetry
    /// Ended: the reader turned renewal off.
    case expiredVoluntary
    /// Ended: billing failed.
    case expiredBilling
    /// Ended: the reader did not accept a price increase.
    case expiredPriceIncrease
    /// Ended: the product was no longer on sale.
    case expiredProductUnavailable
    /// Ended otherwise.
    case expiredOther
    /// Refunded or revoked.
    case revoked
    /// Paused by the reader (Google Play).
    case paused
    /// A state this version of the client does not know.
    case unrecognized(String)

    private static let known: [SubscriptionState] = [
        .active, .activeAutoRenewOff, .gracePeriod, .billingRetry, .expiredVoluntary, .expiredBilling,
        .expiredPriceIncrease, .expiredProductUnavailable, .expiredOther, .revoked, .paused,
    ]

    /// The state named `rawValue`.
    public init(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .unrecognized(rawValue)
    }

    /// The state as the gateway spells it.
    public var rawValue: String {
        switch self {
        case .active: "active"
        case .activeAutoRenewOff: "activeAutoRenewOff"
        case .gracePeriod: "gracePeriod"
        case .billingRetry: "billingRetry"
        case .expiredVoluntary: "expiredVoluntary"
        case .expiredBilling: "expiredBilling"
        case .expiredPriceIncrease: "expiredPriceIncrease"
        case .expiredProductUnavailable: "expiredProductUnavailable"
        case .expiredOther: "expiredOther"
        case .revoked: "revoked"
        case .paused: "paused"
        case .unrecognized(let state): state
        }
    }
}

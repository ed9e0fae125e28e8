import Wire

/// One fact as it arrived on an account (http-api.md, `GET /v1/accounts/{accountId}/history`):
/// when, what kind, through which source, and the kind's details. Written by the rules above the
/// store in the unit of work that stores the fact itself, so an event exists exactly when its
/// fact was committed.
public struct HistoryEvent: Sendable, Equatable {
    /// The store's order of arrival, also the history's cursor; 0 for an event not yet stored.
    public var sequence: Int64
    public var accountId: String
    /// When the gateway took the fact (its clock), not when Apple says the purchase happened:
    /// those instants are among the details.
    public var at: Instant
    public var kind: HistoryKind
    public var source: HistorySource
    /// The kind's details, in the order they are answered; never `at`, `kind` or `source`.
    public var details: JSONObject

    public init(sequence: Int64 = 0, accountId: String, at: Instant, kind: HistoryKind, source: HistorySource,
                details: JSONObject) {
        self.sequence = sequence; self.accountId = accountId; self.at = at; self.kind = kind
        self.source = source; self.details = details
    }
}

/// What happened to the account's facts.
public enum HistoryKind: String, Sendable, CaseIterable {
    /// A transaction the account's subscriptions or purchases did not hold before.
    case transactionSeen
    /// A known transaction changed: its expiry moved, it was upgraded, its product or purchase
    /// date changed (`changes` says which).
    case transactionChanged
    /// A transaction was revoked, not by an upgrade (E6).
    case refund
    /// A revocation was reversed: the transaction counts again (E6).
    case refundReversed
    /// A subscription's renewal info is new or changed (`changes` says what).
    case renewalInfoChanged
    /// The account became the owner of a subscription or single purchase (E4), with
    /// `fromAccountId` when it was taken from another account.
    case ownershipBound
    /// Another account (`toAccountId`) took a subscription or purchase this account owned (E4).
    case ownershipTransferredAway
    case grantGiven, grantRevoked
    /// A grant's interval moved with what it follows (E29: a print subscriber's list).
    case grantChanged
    case codeRedeemed
    /// E32: an anonymous account was merged into an identified one (`mergedFrom` on the account
    /// merged into, `mergedInto` on the merged one).
    case merged
    /// Something an operator did for the account (`action` names it).
    case operatorAction
}

/// Where a fact came from (http-api.md's list).
public enum HistorySource: String, Sendable, CaseIterable {
    case receipt, signedTransaction, notificationV1, notificationV2, serverApi, poll, grant, code, admin
    /// Google Play: asked on a reader's post, a refresh or a backfill; asked because of a
    /// real-time developer notification.
    case googlePlayApi, rtdn
    /// Stripe (http-api.md, Google Play and Stripe): a signed event, or the gateway's call to Stripe's API.
    case stripeEvent, stripeApi
    /// A print subscriber's claim and its list (E29).
    case print
    /// What an institution gave (E30).
    case institution
    /// A reader's sign-in (E32).
    case signIn
}

/// One page of an account's history, oldest first.
public struct HistoryPage: Sendable, Equatable {
    public var events: [HistoryEvent]
    /// The sequence to continue after, while more remain.
    public var next: Int64?

    public init(events: [HistoryEvent], next: Int64?) { self.events = events; self.next = next }
}

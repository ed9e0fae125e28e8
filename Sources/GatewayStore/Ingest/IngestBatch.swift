import Entitle
import Wire

/// Facts proved to come from Apple (E2), to be stored for one account.
public struct IngestBatch: Sendable {
    /// The account that brought the facts; nil for a server notification, whose facts go to the
    /// subscription's current owner (or the account an `appAccountToken` names), else stay unbound
    /// until an account brings them.
    public var accountId: String?
    public var transactions: [Transaction]
    public var renewalInfos: [RenewalInfo]
    /// The base64 receipt these facts came from, kept once and pointed to by every subscription
    /// it describes, for status polling.
    public var receiptData: String?
    /// A V2 notification's UUID: recorded as processed in the same unit of work that stores its
    /// facts, so a notification is taken exactly once (a second delivery changes nothing) and one
    /// whose facts could not be stored is not marked, and is taken when Apple retries it.
    public var notificationUUID: String?
    /// Subscriptions whose whole transaction history (App Store Server API) is among the facts:
    /// marked fetched in the same unit of work, so a history is fetched once and a failed store
    /// leaves it to be fetched again.
    public var historyFetched: [SubscriptionKey] = []
    /// Accounts the store itself names as a subscription's owner (Stripe's `client_reference_id`
    /// or account metadata key): like an `appAccountToken`, a name that an existing account holds
    /// wins over the requester and the policy (E4); a subscription named without facts yet is bound
    /// all the same, so its facts find their owner whenever they come.
    public var namedOwners: [SubscriptionKey: String] = [:]
    /// The store's customer behind each subscription (Stripe's `cus_…`), kept for support's lookup.
    public var customers: [SubscriptionKey: String] = [:]
    /// Google Play subscription snapshots fetched for these facts (E25), kept in the same unit of
    /// work (each unless its token's newest kept one says the same).
    public var playSnapshots: [PlaySnapshotRecord] = []
    public var at: Instant
    /// Where the batch came from, for the history; nil: what its descriptions say
    /// (`FactHistory.source`).
    public var source: HistorySource?

    public init(accountId: String?, transactions: [Transaction], renewalInfos: [RenewalInfo] = [],
                receiptData: String? = nil, notificationUUID: String? = nil, at: Instant, source: HistorySource? = nil) {
        self.accountId = accountId; self.transactions = transactions; self.renewalInfos = renewalInfos
        self.receiptData = receiptData; self.notificationUUID = notificationUUID; self.at = at
        self.source = source
    }
}

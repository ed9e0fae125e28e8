import IssueCatalog
import Entitle
import Wire

/// Everything the gateway persists, behind one interface. Callers never see SQL: a PostgreSQL
/// implementation can replace `SQLiteStore` without touching them. Every method is safe to call
/// from many threads at once, and every method that changes more than one row does so atomically.
///
/// Time is always passed in (the store reads no clock), so tests and the engine agree on "now".
public protocol GatewayStore: AnyObject, Sendable {
    // MARK: Catalog

    /// The whole catalog, every issue in every state (retracted and scheduled included).
    func loadCatalog() throws(StoreError) -> Catalog
    /// Grows by at least one with every committed catalog change; caches rebuild their
    /// `CatalogSnapshot` when it moves. Starts at 0 for an empty store.
    func catalogRevision() throws(StoreError) -> Int64
    /// Replaces the stored catalog with `catalog` in one transaction: afterwards `loadCatalog()`
    /// returns exactly it (order aside). The caller validates it first.
    func importCatalog(_ catalog: Catalog) throws(StoreError)
    func upsertPublication(_ publication: Publication) throws(StoreError) -> UpsertOutcome
    /// `.notFound` when a grant names an unknown publication.
    func upsertProduct(_ product: Product) throws(StoreError) -> UpsertOutcome
    /// `.conflict` if the id exists in that publication, `.notFound` if the publication does not.
    func insertIssue(_ issue: Issue) throws(StoreError)
    /// Corrects or reschedules an existing issue; clears a retraction (republish, E16).
    /// Returns the stored issue. `.notFound` if it does not exist.
    @discardableResult
    func updateIssue(_ issue: Issue) throws(StoreError) -> Issue
    /// Sets `retractedAt` (E16) unless already retracted (the first retraction instant is kept).
    /// Returns the stored issue. `.notFound` if it does not exist.
    @discardableResult
    func retractIssue(_ ref: IssueRef, at instant: Instant) throws(StoreError) -> Issue

    // MARK: Accounts

    /// `.conflict` if the id, the token hash or the appAccountToken is taken.
    func createAccount(_ account: Account) throws(StoreError)
    func account(id: String) throws(StoreError) -> Account?
    func account(tokenHash: String) throws(StoreError) -> Account?
    func account(appAccountToken: String) throws(StoreError) -> Account?

    // MARK: API keys

    /// `.conflict` if the key id or the secret hash is taken.
    func createAPIKey(_ key: APIKey) throws(StoreError)
    func apiKey(secretHash: String) throws(StoreError) -> APIKey?
    func apiKeys() throws(StoreError) -> [APIKey]
    /// The key stops working at once: the next `apiKey(secretHash:)` no longer finds it.
    /// `.notFound` if no such key.
    func deleteAPIKey(keyId: String) throws(StoreError)

    // MARK: Transactions and renewal info

    /// Every transaction of every subscription and purchase the account owns (E4).
    func transactions(ofAccount accountId: String) throws(StoreError) -> [Transaction]
    func renewalInfos(ofAccount accountId: String) throws(StoreError) -> [RenewalInfo]
    /// Who owns a subscription or single purchase, if anyone.
    func owner(of subscription: SubscriptionKey) throws(StoreError) -> String?
    /// Ingests a batch all-or-nothing: merges every fact with the stored one of the same identity
    /// (E1, using the caller's merge functions), binds every subscription it touches (E4) and
    /// records the latest receipt. `.ownedByOtherAccount` under `.keep` leaves everything unchanged.
    func ingest(_ batch: IngestBatch, policy: OwnershipPolicy, merge: FactMerge) throws(StoreError) -> IngestResult

    // MARK: Status polling

    /// The latest receipt stored for one subscription, with its owner.
    func latestReceipt(for subscription: SubscriptionKey) throws(StoreError) -> StoredReceipt?
    /// Subscriptions whose latest `expiresDate` lies in `[notBefore, before)` or whose renewal info
    /// says billing retry, oldest expiry first, at most `limit`; for the App Store status poller.
    func subscriptionsToPoll(expiringBefore before: Instant, notBefore: Instant, limit: Int)
        throws(StoreError) -> [PollTarget]

    // MARK: App Store notifications

    /// Records a notification UUID as processed. Returns false when it already was (atomic: of
    /// two concurrent calls with one UUID exactly one gets true).
    func markNotificationProcessed(_ uuid: String, at instant: Instant) throws(StoreError) -> Bool
}

/// What went wrong in a store call. No database type leaks out.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The thing exists already (an issue id in its publication, an account id, a key id).
    case conflict(String)
    /// The thing, or a thing it refers to, does not exist.
    case notFound(String)
    /// E4 under the `keep` policy: the subscription or purchase belongs to this other account.
    case ownedByOtherAccount(accountId: String)
    /// The database could not be read or written (disk, corruption, locked for too long).
    case io(String)

    public var description: String {
        switch self {
        case .conflict(let m): return "conflict: \(m)"
        case .notFound(let m): return "not found: \(m)"
        case .ownedByOtherAccount(let a): return "owned by other account \(a)"
        case .io(let m): return "storage error: \(m)"
        }
    }
}

public enum UpsertOutcome: Sendable, Equatable { case created, updated }

/// A reader account. Its bearer token is stored only as a hash.
public struct Account: Hashable, Sendable {
    public var id: String
    /// Lowercase hex SHA-256 of the account token.
    public var tokenHash: String
    /// The StoreKit 2 `appAccountToken` (a UUID) the app sets on purchases (E4).
    public var appAccountToken: String?
    public var createdAt: Instant

    public init(id: String, tokenHash: String, appAccountToken: String? = nil, createdAt: Instant) {
        self.id = id; self.tokenHash = tokenHash; self.appAccountToken = appAccountToken; self.createdAt = createdAt
    }
}

/// An API key (http-api.md, Auth). The secret is stored only as a hash.
public struct APIKey: Hashable, Sendable {
    public enum Role: String, Hashable, Sendable, CaseIterable { case admin, editor, service }

    public var keyId: String
    public var role: Role
    /// Publications an editor key may change; empty for other roles.
    public var publications: [String]
    /// Lowercase hex SHA-256 of the secret.
    public var secretHash: String
    public var createdAt: Instant

    public init(keyId: String, role: Role, publications: [String] = [], secretHash: String, createdAt: Instant) {
        self.keyId = keyId; self.role = role; self.publications = publications
        self.secretHash = secretHash; self.createdAt = createdAt
    }
}

/// The E1 merge, supplied by `Entitle`: the store keeps facts, it does not decide which is newer.
public struct FactMerge: Sendable {
    public var transaction: @Sendable (_ stored: Transaction, _ incoming: Transaction) -> Transaction
    public var renewalInfo: @Sendable (_ stored: RenewalInfo, _ incoming: RenewalInfo) -> RenewalInfo

    public init(transaction: @escaping @Sendable (Transaction, Transaction) -> Transaction,
                renewalInfo: @escaping @Sendable (RenewalInfo, RenewalInfo) -> RenewalInfo) {
        self.transaction = transaction; self.renewalInfo = renewalInfo
    }
}

/// Facts proved to come from Apple (E2), to be stored for one account.
public struct IngestBatch: Sendable {
    /// The account that brought the facts; nil for a server notification, whose facts go to the
    /// subscription's current owner (or the account an `appAccountToken` names), else stay unbound
    /// until an account brings them.
    public var accountId: String?
    public var transactions: [Transaction]
    public var renewalInfos: [RenewalInfo]
    /// The base64 receipt these facts came from, kept per subscription for status polling.
    public var receiptData: String?
    public var at: Instant

    public init(accountId: String?, transactions: [Transaction], renewalInfos: [RenewalInfo] = [],
                receiptData: String? = nil, at: Instant) {
        self.accountId = accountId; self.transactions = transactions; self.renewalInfos = renewalInfos
        self.receiptData = receiptData; self.at = at
    }
}

public struct IngestResult: Sendable, Equatable {
    /// The owner of every subscription the batch touched, after the batch (nil: unbound).
    public var owners: [SubscriptionKey: String?]
    /// Accounts that lost a subscription to this batch (E4 transfer or appAccountToken); their
    /// entitlements changed too.
    public var previousOwners: Set<String>

    public init(owners: [SubscriptionKey: String?], previousOwners: Set<String>) {
        self.owners = owners; self.previousOwners = previousOwners
    }
}

public struct StoredReceipt: Hashable, Sendable {
    public var subscription: SubscriptionKey
    public var receiptData: String
    public var accountId: String?
    public var updatedAt: Instant
}

public struct PollTarget: Hashable, Sendable {
    public var subscription: SubscriptionKey
    public var accountId: String?
    public var latestExpiresDate: Instant?
    public var isInBillingRetry: Bool
    public var receiptData: String?
}

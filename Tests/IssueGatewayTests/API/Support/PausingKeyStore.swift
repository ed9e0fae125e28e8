import Entitle
import IssueCatalog
import Synchronization
@testable import IssueGateway
import TestSupport
import Wire

/// A `GatewayStore` that forwards everything to a real store, except that one armed
/// `apiKey(secretHash:)` lookup stops after reading, until the test lets it go: the way to put a
/// request in flight exactly across a key's revocation.
final class PausingKeyStore: GatewayStore {
    private let base: any GatewayStore
    private let armed = Mutex(false)
    let lookupRead = Gate()
    let release = Gate()

    init(_ base: any GatewayStore) { self.base = base }

    /// The next key lookup pauses after it has read the key.
    func pauseNextKeyLookup() { armed.withLock { $0 = true } }

    func apiKey(secretHash: String) throws(StoreError) -> APIKey? {
        let found = try base.apiKey(secretHash: secretHash)
        if armed.withLock({ let was = $0; $0 = false; return was }) {
            lookupRead.open()
            release.wait(seconds: 10)
        }
        return found
    }

    func loadCatalog() throws(StoreError) -> Catalog { try base.loadCatalog() }
    func catalogRevision() throws(StoreError) -> Int64 { try base.catalogRevision() }
    func importCatalog(_ catalog: Catalog) throws(StoreError) { try base.importCatalog(catalog) }
    func upsertPublication(_ publication: Publication) throws(StoreError) -> UpsertOutcome { try base.upsertPublication(publication) }
    func upsertProduct(_ product: Product) throws(StoreError) -> UpsertOutcome { try base.upsertProduct(product) }
    func insertIssue(_ issue: Issue) throws(StoreError) { try base.insertIssue(issue) }
    func updateIssue(_ issue: Issue) throws(StoreError) -> Issue { try base.updateIssue(issue) }
    func retractIssue(_ ref: IssueRef, at instant: Instant) throws(StoreError) -> Issue { try base.retractIssue(ref, at: instant) }
    func createAccount(_ account: Account) throws(StoreError) { try base.createAccount(account) }
    func account(id: String) throws(StoreError) -> Account? { try base.account(id: id) }
    func account(tokenHash: String) throws(StoreError) -> Account? { try base.account(tokenHash: tokenHash) }
    func account(appAccountToken: String) throws(StoreError) -> Account? { try base.account(appAccountToken: appAccountToken) }
    func createAPIKey(_ key: APIKey) throws(StoreError) { try base.createAPIKey(key) }
    func apiKeys() throws(StoreError) -> [APIKey] { try base.apiKeys() }
    func deleteAPIKey(keyId: String) throws(StoreError) { try base.deleteAPIKey(keyId: keyId) }
    func transactions(ofAccount accountId: String) throws(StoreError) -> [Transaction] { try base.transactions(ofAccount: accountId) }
    func renewalInfos(ofAccount accountId: String) throws(StoreError) -> [RenewalInfo] { try base.renewalInfos(ofAccount: accountId) }
    func owner(of subscription: SubscriptionKey) throws(StoreError) -> String? { try base.owner(of: subscription) }
    func ingest(_ batch: IngestBatch, policy: OwnershipPolicy, merge: FactMerge) throws(StoreError) -> IngestResult {
        try base.ingest(batch, policy: policy, merge: merge)
    }
    func latestReceipt(for subscription: SubscriptionKey) throws(StoreError) -> StoredReceipt? { try base.latestReceipt(for: subscription) }
    func subscriptionsToPoll(expiringBefore before: Instant, notBefore: Instant, limit: Int) throws(StoreError) -> [PollTarget] {
        try base.subscriptionsToPoll(expiringBefore: before, notBefore: notBefore, limit: limit)
    }
    func markNotificationProcessed(_ uuid: String, at instant: Instant) throws(StoreError) -> Bool {
        try base.markNotificationProcessed(uuid, at: instant)
    }
}

import Entitle
import IssueCatalog
import Wire

/// App Store facts and receipts, one unit of work each (a notification's dedupe goes with its facts: `IngestBatch.notificationUUID`).
extension GatewayStore {
    /// An account's transactions, renewal infos, grants and facts version from one snapshot: one
    /// statement (the cold path of every list and token).
    public func accountFacts(_ accountId: String) throws(StoreError) -> VersionedFacts {
        try readStatement { tx throws(StoreError) in try tx.versionedFacts(ofAccount: accountId) }
    }

    /// Several accounts' facts, each with its version, from one snapshot (a push's page): one
    /// unit of work for all of them. An account with nothing stored has empty facts.
    public func accountFacts(_ accountIds: [String]) throws(StoreError) -> [String: VersionedFacts] {
        try read { tx throws(StoreError) in
            var facts: [String: VersionedFacts] = [:]
            for id in accountIds { facts[id] = try Self.facts(of: id, tx) }
            return facts
        }
    }

    static func facts(of accountId: String, _ tx: any ReadTransaction) throws(StoreError) -> VersionedFacts {
        try tx.versionedFacts(ofAccount: accountId)
    }

    /// Who owns a subscription or single purchase, if anyone.
    public func owner(of subscription: SubscriptionKey) throws(StoreError) -> String? {
        try read { tx throws(StoreError) in try tx.owner(of: subscription) }
    }

    /// Ingests a batch all-or-nothing (E1 merge, E4 binding, receipt, facts versions: see
    /// `FactIngestor`). `.refused` (E4 under `.keep`) leaves everything unchanged.
    public func ingest(_ batch: IngestBatch, policy: OwnershipPolicy, events: EventPolicy = .off)
        throws(StoreError) -> IngestOutcome {
        try write { tx throws(StoreError) in try FactIngestor(policy: policy, events: events).ingest(batch, into: tx) }
    }

    /// See `ReadTransaction.transactions(stripeInvoice:environment:)`.
    public func transactions(stripeInvoice invoiceId: String, environment: StoreEnvironment) throws(StoreError) -> [Transaction] {
        try read { tx throws(StoreError) in try tx.transactions(stripeInvoice: invoiceId, environment: environment) }
    }

    /// Every transaction of one subscription or single purchase, whoever owns it.
    public func transactions(ofSubscription subscription: SubscriptionKey) throws(StoreError) -> [Transaction] {
        try read { tx throws(StoreError) in try tx.transactions(of: subscription) }
    }

    /// A subscription's renewal info, if stored.
    public func renewalInfo(_ subscription: SubscriptionKey) throws(StoreError) -> RenewalInfo? {
        try read { tx throws(StoreError) in try tx.renewalInfo(subscription) }
    }

    /// The latest receipt stored for one subscription, with its owner.
    public func latestReceipt(for subscription: SubscriptionKey) throws(StoreError) -> StoredReceipt? {
        try read { tx throws(StoreError) in try tx.latestReceipt(for: subscription) }
    }

    /// See `ReadTransaction.subscriptionsToPoll`.
    public func subscriptionsToPoll(expiringBefore before: Instant, notBefore: Instant, limit: Int, store: Store? = nil)
        throws(StoreError) -> [PollTarget] {
        try read { tx throws(StoreError) in
            try tx.subscriptionsToPoll(expiringBefore: before, notBefore: notBefore, limit: limit, store: store)
        }
    }
}

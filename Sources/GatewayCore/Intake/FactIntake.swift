import Entitle
import GatewayStore

/// The one way facts are stored, whichever store proved them (App Store, Google Play, Stripe):
/// one write unit of work per batch, with E1's merge and E4's ownership written once below it
/// (`FactIngestor`), the history recorded with the facts, and the cached facts of every account
/// the batch touched forgotten. No store's ingestion stores its facts any other way.
package final class FactIntake: Sendable {
    package let store: any GatewayStore
    package let clock: any GatewayClock
    private let accounts: AccountFactsCache
    private let ownership: OwnershipPolicy
    private let events: EventPolicy

    package init(store: any GatewayStore, accounts: AccountFactsCache, ownership: OwnershipPolicy, events: EventPolicy = .off,
                 clock: any GatewayClock) {
        self.store = store; self.accounts = accounts; self.ownership = ownership; self.events = events; self.clock = clock
    }

    /// Stores the facts an account brought (its receipt, its signed transactions) all-or-nothing:
    /// `ownedByOtherAccount` when E4 under `keep` leaves them with another account, and then
    /// nothing changed.
    @discardableResult
    package func save(_ facts: VerifiedFacts, for accountId: String) throws(GatewayError) -> IngestResult {
        guard !Self.carriesNothing(facts, notificationUUID: nil) else { return IngestResult(owners: [:], previousOwners: []) }
        return try ingest({ _ throws(StoreError) in facts }, accountId: accountId, notificationUUID: nil, source: nil)
    }

    /// `save` for facts that depend on what the store keeps (Google Play's periods built from the
    /// snapshots kept, E25): `build` reads in the write unit of work that stores what it returns,
    /// and runs again whenever that unit of work does, so it never builds from a state another
    /// writer changed meanwhile.
    @discardableResult
    package func save(building build: (any ReadTransaction) throws(StoreError) -> VerifiedFacts,
                      for accountId: String) throws(GatewayError) -> IngestResult {
        try ingest(build, accountId: accountId, notificationUUID: nil, source: nil)
    }

    /// Stores facts no account brought (notifications, polls, the Server API) all-or-nothing, for
    /// whoever owns them. `source` names the path for the history when the facts' own sources do
    /// not (a status poll).
    @discardableResult
    package func saveForOwners(_ facts: VerifiedFacts, notificationUUID: String? = nil,
                               source: HistorySource? = nil) throws(GatewayError) -> IngestResult {
        guard !Self.carriesNothing(facts, notificationUUID: notificationUUID) else { return IngestResult(owners: [:], previousOwners: []) }
        return try saveForOwners(building: { _ throws(StoreError) in facts }, notificationUUID: notificationUUID, source: source)
    }

    /// Nothing to store: no write unit of work is opened.
    private static func carriesNothing(_ facts: VerifiedFacts, notificationUUID: String?) -> Bool {
        facts.transactions.isEmpty && facts.renewals.isEmpty && facts.namedOwners.isEmpty && facts.customers.isEmpty
            && facts.playSnapshots.isEmpty && notificationUUID == nil
    }

    /// `saveForOwners` with facts built in the unit of work that stores them (`save(building:for:)`).
    @discardableResult
    package func saveForOwners(building build: (any ReadTransaction) throws(StoreError) -> VerifiedFacts,
                               notificationUUID: String? = nil, source: HistorySource? = nil) throws(GatewayError) -> IngestResult {
        // E4 hands facts without a requester to their owner, so `keep` has nothing to refuse;
        // were the store to refuse, the client hears what an account would.
        try ingest(build, accountId: nil, notificationUUID: notificationUUID, source: source)
    }

    /// Ingests one batch and forgets the cached facts of every account whose entitlements it
    /// changed (none when refused: nothing changed). E4's refusal under `keep` is
    /// `ownedByOtherAccount`.
    private func ingest(_ build: (any ReadTransaction) throws(StoreError) -> VerifiedFacts, accountId: String?,
                        notificationUUID: String?, source: HistorySource?) throws(GatewayError) -> IngestResult {
        let at = clock.now(), ingestor = FactIngestor(policy: ownership, events: events)
        let outcome = try stored { () throws(StoreError) in
            try store.write { tx throws(StoreError) in
                let facts = try build(tx)
                guard !Self.carriesNothing(facts, notificationUUID: notificationUUID) else {
                    return IngestOutcome.stored(IngestResult(owners: [:], previousOwners: []))
                }
                let batch = IngestBatch(facts, accountId: accountId, notificationUUID: notificationUUID, at: at, source: source)
                return try ingestor.ingest(batch, into: tx)
            }
        }
        let result: IngestResult
        switch outcome {
        case .stored(let stored): result = stored
        case .refused: throw .ownedByOtherAccount
        case .unknownAccount: throw .notFound("account \(accountId ?? "")")
        }
        var touched = result.previousOwners
        for owner in result.owners.values { if let owner { touched.insert(owner) } }
        if let accountId { touched.insert(accountId) }
        accounts.invalidate(touched)
        return result
    }
}

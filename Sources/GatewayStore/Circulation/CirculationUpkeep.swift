import Entitle
import GatewayCrypto
import IssueCatalog
import Synchronization
import Wire

/// E36: keeps every account's `circulation_evidence` derived from its facts by the engine
/// (`CirculationDerivation`) under one policy, for the accounts marked due after the unit of
/// work that changed their facts (decision 96), so that an issue's circulation is one indexed
/// query. The rows depend on the catalog's products and publications and on the policy (not on
/// its issues: a new issue needs nothing); a change of those is caught by `fingerprint` and
/// answered by `rebuild` (decision 86).
public final class CirculationUpkeep: FactsUpkeeping {
    public let policy: EntitlementPolicy
    /// The catalog prepared at a revision: one catalog read per catalog change, not per write.
    private let prepared = Mutex<(revision: Int64, catalog: EntitlementCatalog)?>(nil)

    public init(policy: EntitlementPolicy) { self.policy = policy }

    public func prepare(_ accounts: [StoredAccountFacts], reading tx: any ReadTransaction) throws(StoreError) -> any PreparedUpkeep {
        let catalog = try catalog(tx)
        // readers.md, Deletion: a deleted reader leaves circulation as if never a reader (its
        // ended grants included).
        return Prepared(evidence: accounts.map { account in
            (account.accountId,
             account.isReader ? CirculationDerivation.evidence(catalog: catalog, facts: account.facts, policy: policy) : [])
        })
    }

    private struct Prepared: PreparedUpkeep {
        let evidence: [(accountId: String, evidence: [CirculationEvidence])]

        func write(only accountIds: Set<String>?, in tx: any WriteTransaction) throws(StoreError) {
            try tx.replaceCirculationEvidence(accountIds.map { ids in evidence.filter { ids.contains($0.accountId) } } ?? evidence)
        }
    }

    /// The catalog at `tx`'s revision, prepared once per revision.
    public func catalog(_ tx: any ReadTransaction) throws(StoreError) -> EntitlementCatalog {
        let revision = try tx.catalogRevision()
        if let kept = prepared.withLock({ $0 }), kept.revision == revision { return kept.catalog }
        let catalog = EntitlementCatalog(CatalogSnapshot(try tx.catalog()))
        prepared.withLock { $0 = (revision, catalog) }
        return catalog
    }

    /// What the rows were derived under: the products (what each is and grants), the
    /// publications and the policy, as a SHA-256 in hex.
    public func fingerprint(_ catalog: CatalogSnapshot) throws(StoreError) -> String {
        var text = "policy \(policy.acceptSandbox) \(policy.graceDays)\n"
        for publication in catalog.publications.map(\.id).sorted() { text += "publication \(publication)\n" }
        for p in catalog.products.sorted(by: { $0.id < $1.id }) {
            text += "product \(p.id) \(p.store.rawValue) \(p.storeProductId) \(p.kind.rawValue) \(p.duration?.description ?? "-")"
            text += " \(p.issue.map { "\($0.publicationId)/\($0.issueId)" } ?? "-") \(p.grants.sorted().joined(separator: ","))\n"
        }
        do {
            return Hex.encode(try SHA256Digest.hash(Array(text.utf8)))
        } catch {
            throw .failed
        }
    }

    /// Derives every account's rows again from its facts (every account marked due, then the
    /// marks drained, `batch` accounts per unit of work), and records the fingerprint they were
    /// made under last (`issue-gateway reports rebuild`). Returns how many accounts it marked.
    @discardableResult
    public func rebuild(_ store: any GatewayStore, batch: Int = 500) throws(StoreError) -> Int {
        let count = try store.markEveryAccountDue(batch: batch)
        try store.drainReportRows(batch: batch)
        try store.write { tx throws(StoreError) in
            try tx.deleteCirculationEvidenceOfMissingAccounts()
            try tx.setCirculationFingerprint(try fingerprint(try catalog(tx).snapshot))
        }
        return count
    }

    /// Rebuilds when the rows were made under another catalog or policy (or never): what a
    /// report calls before it reads them.
    public func ensureCurrent(_ store: any GatewayStore) throws(StoreError) {
        let current = try store.read { tx throws(StoreError) in
            try tx.circulationFingerprint() == fingerprint(try catalog(tx).snapshot)
        }
        if !current { try rebuild(store) }
    }
}

import Testing
import Entitle
import GatewayStore
import IssueCatalog

/// `read` is one snapshot, `write` one atomic change, on every backend.
@Suite struct UnitOfWorkTests {
    private struct Abandoned: Error {}

    @Test(arguments: StoreBackend.all)
    func aWriteThatThrowsLeavesNothing(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        #expect(throws: StoreError.busy) {
            try f.store.write { tx throws(StoreError) in
                _ = try tx.insert(Fixtures.account("dave"))
                try tx.save(Publication(id: "p", title: "P"))
                try tx.bumpCatalogRevision()
                try tx.save(Fixtures.transaction("1", original: "1"))
                try tx.setOwner("dave", of: Fixtures.transaction("1", original: "1").subscriptionKey, at: Fixtures.t0)
                try tx.bumpFactsVersion(ofAccount: "alice")
                throw .busy
            }
        }
        #expect(try f.store.account(id: "dave") == nil)
        #expect(try f.store.storedCatalog() == StoredCatalog(revision: 0, catalog: Catalog()))
        #expect(try f.store.accountFacts("dave") == VersionedFacts(facts: AccountFacts(), version: 0))
        #expect(try f.version("alice") == 0)
        #expect(try f.store.read { tx throws(StoreError) in try tx.transaction(Fixtures.transaction("1", original: "1").key) } == nil)
    }

    /// A write committed by another connection while a read unit of work is open is invisible to
    /// it: facts and version come from the state the read began on, never half of each.
    @Test(arguments: StoreBackend.all)
    func aReadSeesFactsAndVersionFromOneSnapshot(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [Fixtures.transaction("1", original: "1")])
        let before = try f.store.accountFacts("alice")
        let seen = try f.store.read { tx throws(StoreError) in
            let transactions = try tx.transactions(ofAccount: "alice")
            _ = try f.store.ingest(IngestBatch(accountId: "alice", transactions: [Fixtures.transaction("2", original: "2")],
                                               at: Fixtures.t0), policy: .transfer)
            return VersionedFacts(facts: AccountFacts(transactions: transactions, renewals: try tx.renewalInfos(ofAccount: "alice")),
                                  version: try tx.factsVersion(ofAccount: "alice"))
        }
        #expect(seen == before)
        let after = try f.store.accountFacts("alice")
        #expect(after.transactions.map(\.transactionId) == ["1", "2"])
        #expect(after.version == before.version + 1)
    }

    @Test(arguments: StoreBackend.all)
    func aReadSeesTheCatalogWithItsOwnRevision(_ backend: StoreBackend) throws {
        let opened = try backend.openWithCatalog()
        let store = opened.store
        let before = try store.storedCatalog()
        let seen = try store.read { tx throws(StoreError) in
            let revision = try tx.catalogRevision()
            try store.insertIssue(Issue(publicationId: "weekly", id: "w2", title: "Week 2", publishedAt: Fixtures.t0))
            return StoredCatalog(revision: revision, catalog: try tx.catalog())
        }
        #expect(seen == before)
        let after = try store.storedCatalog()
        #expect(after.revision == before.revision + 1)
        #expect(after.catalog.issues.count == before.catalog.issues.count + 1)
    }
}

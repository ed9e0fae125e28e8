import Testing
import Entitle
import GatewayStore

/// Per-account facts versions: bumped in the ingest's own unit of work for every account whose
/// facts it changed, and for no other.
@Suite struct FactsVersionTests {
    @Test(arguments: StoreBackend.all)
    func anIngestBumpsTheAccountItChangedAndNoOther(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let result = try f.ingest("alice", [Fixtures.transaction("1", original: "1")])
        #expect(try f.version("alice") == 1)
        #expect(try f.version("bob") == 0)
        #expect(try f.version("carol") == 0)
        #expect(result.factsVersions == ["alice": 1])
    }

    @Test(arguments: StoreBackend.all)
    func aBumpAnswersTheVersionItRaisedToAndMarksTheReportsRowsDue(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let versions = try f.store.write { tx throws(StoreError) in
            [try tx.bumpFactsVersion(ofAccount: "alice"), try tx.bumpFactsVersion(ofAccount: "alice"),
             try tx.bumpFactsVersion(ofAccount: "bob"), try tx.bumpFactsVersion(ofAccount: "nobody")]
        }
        #expect(versions == [1, 2, 1, 0], "no such account: 0")
        #expect(try f.version("alice") == 2)
        #expect(try f.version("carol") == 0)
        #expect(try f.store.read { tx throws(StoreError) in try tx.reportRowsDue(limit: 10) } == ["alice", "bob", "nobody"],
                "E36, E37: every bumped account is marked in the bump's unit of work")
    }

    @Test(arguments: StoreBackend.all)
    func aTransferBumpsTheNewOwnerAndThePreviousOne(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [Fixtures.transaction("1", original: "1")])
        try f.ingest("bob", [Fixtures.transaction("2", original: "2")])
        let result = try f.ingest("carol", [Fixtures.transaction("1", original: "1")])
        #expect(result.previousOwners == ["alice"])
        #expect(result.factsVersions == ["alice": 2, "carol": 1])
        #expect(try f.version("alice") == 2)
        #expect(try f.version("bob") == 1, "bob's facts did not change")
        #expect(try f.version("carol") == 1)
    }

    @Test(arguments: StoreBackend.all)
    func aNotificationBumpsTheOwnerOfWhatItChanged(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [Fixtures.transaction("1", original: "1")])
        var refunded = Fixtures.transaction("1", original: "1")
        refunded.revocationDate = Fixtures.instant("2026-01-10T00:00:00Z")
        let renewal = RenewalInfo(environment: .production, originalTransactionId: "1", autoRenewStatus: false,
                                  isInBillingRetry: false, source: .notificationV2)
        try f.ingest(nil, [refunded])
        #expect(try f.version("alice") == 2)
        try f.ingest(nil, [], renewals: [renewal])
        #expect(try f.version("alice") == 3, "renewal info alone changes the owner's facts")
        try f.ingest(nil, [Fixtures.transaction("7", original: "7")])
        #expect(try [f.version("alice"), f.version("bob"), f.version("carol")] == [3, 0, 0], "unbound facts bump nobody")
    }

    /// E1: the same descriptions again, in any order, change nothing, so no version moves and
    /// cached answers stay valid.
    @Test(arguments: StoreBackend.all)
    func e1ReingestingWhatIsStoredIsIdempotent(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var refunded = Fixtures.transaction("1", original: "1")
        refunded.revocationDate = Fixtures.instant("2026-01-10T00:00:00Z")
        let plain = Fixtures.transaction("1", original: "1")
        let renewal = Fixtures.transaction("2", original: "1", purchased: "2026-02-01T00:00:00Z",
                                           expires: "2026-03-01T00:00:00Z")
        try f.ingest("alice", [plain, refunded, renewal])
        let stored = try f.store.accountFacts("alice")
        #expect(stored.version == 1)
        for batch in [[renewal, refunded, plain], [refunded], [plain], [renewal, plain]] {
            let result = try f.ingest("alice", batch)
            #expect(result.factsVersions.isEmpty)
        }
        #expect(try f.store.accountFacts("alice") == stored)

        let other = try IngestFixture(backend)
        try other.ingest("alice", [renewal])
        try other.ingest("alice", [refunded])
        try other.ingest("alice", [plain])
        #expect(try other.store.accountFacts("alice").transactions == stored.transactions, "order never matters")
    }
}

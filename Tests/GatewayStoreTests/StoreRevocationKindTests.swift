import Testing
import IssueCatalog
import Entitle
import GatewayStore
import Wire

/// E24 and E27 facts stored and read back on every backend: how a transaction was revoked, the
/// share returned, and a subscription's pause; and what history says of them.
@Suite struct StoreRevocationKindTests {
    @Test(arguments: StoreBackend.all)
    func theKindThePercentageAndThePauseRoundTrip(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var cut = Fixtures.transaction("1", original: "1")
        cut.revocationDate = Fixtures.instant("2026-01-10T00:00:00Z")
        cut.revocationKind = .proratedRefund
        cut.revocationPercentage = 58_000
        var void = Fixtures.transaction("2", original: "2")
        void.revocationDate = Fixtures.instant("2026-01-12T00:00:00Z")
        let paused = RenewalInfo(environment: .production, originalTransactionId: "1", autoRenewStatus: true,
                                 pausedAt: Fixtures.instant("2026-01-20T00:00:00Z"),
                                 resumesAt: Fixtures.instant("2026-03-01T00:00:00Z"), source: .receipt)
        try f.ingest("alice", [cut, void], renewals: [paused])
        let facts = try f.store.accountFacts("alice")
        #expect(facts.transactions == [cut, void])
        #expect(facts.transactions[1].revocationKind == nil && facts.transactions[1].isVoid)
        #expect(facts.renewals == [paused])
    }

    @Test(arguments: StoreBackend.all)
    func historySaysHowATransactionWasRefundedAndRecordsAPartialRefund(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var t = Fixtures.transaction("1", original: "1")
        try f.ingest("alice", [t])
        t.observedAt = Fixtures.instant("2026-01-03T00:00:00Z")
        t.revocationPercentage = 25_000  // money returned, not revoked: E24's partial refund
        try f.ingest("alice", [t])
        t.observedAt = Fixtures.instant("2026-01-05T00:00:00Z")
        t.revocationDate = Fixtures.instant("2026-01-04T00:00:00Z")
        t.revocationKind = .familyRevoke
        t.revocationPercentage = nil
        try f.ingest("alice", [t])
        let events = try #require(try f.store.history(ofAccount: "alice", after: nil, limit: 100)).events
        let partial = try #require(events.first { $0.kind == .transactionChanged })
        #expect(partial.details["changes"] == .array([.string("partialRefund")]))
        #expect(partial.details["revocationPercentage"] == .integer(25_000))
        let refund = try #require(events.first { $0.kind == .refund })
        #expect(refund.details["revocationType"] == .string("familyRevoke"))
        #expect(refund.details["cut"] == .string("2026-01-04T00:00:00.000Z"))
        #expect(refund.details["revocationPercentage"] == nil)
        // E27: a pause is a renewal info change.
        let renewal = RenewalInfo(environment: .production, originalTransactionId: "1", autoRenewStatus: true,
                                  pausedAt: Fixtures.instant("2026-01-20T00:00:00Z"), source: .receipt)
        try f.ingest("alice", [], renewals: [renewal])
        var resumed = renewal
        resumed.pausedAt = nil
        resumed.observedAt = Fixtures.instant("2026-02-01T00:00:00Z")
        try f.ingest("alice", [], renewals: [resumed])
        let renewals = try #require(try f.store.history(ofAccount: "alice", after: nil, limit: 100)).events
            .filter { $0.kind == .renewalInfoChanged }
        #expect(renewals.count == 2)
        #expect(renewals.first?.details["pausedAt"] == .string("2026-01-20T00:00:00.000Z"))
        #expect(renewals.last?.details["changes"] == .array([.string("pausedAt")]))
        #expect(renewals.last?.details["pausedAt"] == .null)
    }
}

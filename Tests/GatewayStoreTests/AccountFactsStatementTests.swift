import Testing
import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// The facts of the cold path (a list or token for an account nothing kept) in one statement:
/// exactly the facts, orders and version the four queries of a read unit of work give.
@Suite struct AccountFactsStatementTests {
    static func fourQueries(_ store: any GatewayStore, _ accountId: String) throws -> VersionedFacts {
        try store.read { tx throws(StoreError) in
            VersionedFacts(facts: AccountFacts(transactions: try tx.transactions(ofAccount: accountId),
                                               renewals: try tx.renewalInfos(ofAccount: accountId),
                                               grants: try tx.grants(ofAccount: accountId)),
                           version: try tx.factsVersion(ofAccount: accountId))
        }
    }

    @Test(arguments: StoreBackend.all)
    func e1TheFactsInOneStatementAreTheFourQueriesFacts(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var stripe = Fixtures.transaction("in_1/1", original: "sub_1", purchased: "2025-06-01T00:00:00Z",
                                          expires: "2025-07-01T00:00:00Z")
        stripe.store = .stripe
        stripe.revocationDate = Fixtures.instant("2025-06-10T00:00:00Z")
        stripe.revocationKind = .proratedRefund
        stripe.revocationPercentage = 25_000
        var play = Fixtures.transaction("GPA.1..0", original: "GPA.1", environment: .sandbox)
        play.store = .googlePlay
        play.offerPeriod = ISODuration("P1M")
        play.periodBuilt = true
        let apple = [Fixtures.transaction("12", original: "10", purchased: "2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z"),
                     Fixtures.transaction("10", original: "10"),
                     Fixtures.transaction("11", original: "11", expires: nil)]
        let renewals = [
            RenewalInfo(environment: .production, originalTransactionId: "10", productId: "monthly.1m", autoRenewStatus: true,
                        expirationIntent: .billing, isInBillingRetry: true, gracePeriodExpiresDate: Fixtures.instant("2026-03-05T00:00:00Z"),
                        source: .receipt),
            RenewalInfo(store: .stripe, environment: .production, originalTransactionId: "sub_1", autoRenewStatus: false,
                        pausedAt: Fixtures.t0, source: .stripeEvent),
        ]
        try f.ingest("alice", apple + [stripe, play], renewals: renewals)
        try f.ingest("bob", [Fixtures.transaction("20", original: "20")])
        for (id, start) in [("g2", "2025-01-01T00:00:00Z"), ("g1", "2025-01-01T00:00:00Z"), ("g0", "2024-01-01T00:00:00Z")] {
            _ = try f.store.give(Grant(grantId: id, accountId: "alice", source: "support", externalId: id,
                                              publications: ["monthly", "weekly"], start: Fixtures.instant(start),
                                              end: id == "g0" ? Fixtures.t0 : nil, note: id == "g1" ? "a note" : nil,
                                              createdAt: Fixtures.t0))
        }
        let alice = try f.store.accountFacts("alice")
        #expect(alice == (try Self.fourQueries(f.store, "alice")))
        #expect(alice.facts.transactions.count == 5 && alice.facts.renewals.count == 2 && alice.facts.grants.count == 3)
        #expect(alice.facts.grants.map(\.grantId) == ["g0", "g1", "g2"])
        #expect(alice.version > 0)
        #expect(try f.store.accountFacts("bob") == (try Self.fourQueries(f.store, "bob")))
        #expect(try f.store.accountFacts("carol") == VersionedFacts(facts: AccountFacts(), version: 0))
        #expect(try f.store.accountFacts("nobody") == VersionedFacts(facts: AccountFacts(), version: 0))
    }
}

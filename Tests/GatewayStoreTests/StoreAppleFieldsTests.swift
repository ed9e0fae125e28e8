import Testing
import IssueCatalog
import Entitle
import GatewayStore
import Wire

/// Apple's transaction fields added since 2024 (appstore.md), stored and read back on every
/// backend as Apple sent them.
@Suite struct StoreAppleFieldsTests {
    @Test(arguments: StoreBackend.all)
    func theAppTransactionIdAndTheOfferPeriodRoundTripOnTransactionsAndRenewals(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var winBack = Fixtures.transaction("1", original: "1")
        winBack.offer = .winBack
        winBack.offerPeriod = ISODuration("P3M")
        winBack.appTransactionId = "704289572311094226"
        let plain = Fixtures.transaction("2", original: "2")
        let renewal = RenewalInfo(environment: .production, originalTransactionId: "1", autoRenewStatus: true,
                                  appTransactionId: "704289572311094226", offerPeriod: ISODuration("P1M"), source: .signedTransaction)
        try f.ingest("alice", [winBack, plain], renewals: [renewal])
        let facts = try f.store.accountFacts("alice")
        #expect(facts.transactions == [winBack, plain])
        #expect(facts.renewals == [renewal])
        #expect(facts.transactions[0].offerPeriod?.description == "P3M")
    }
}

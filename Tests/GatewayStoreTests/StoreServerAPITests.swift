import Entitle
import GatewayStore
import Testing
import Wire

/// What the App Store Server API work keeps in the store (fetched histories, service marks,
/// stored receipts in pages) and the poll's grace-period clause, on every backend.
@Suite struct StoreServerAPITests {
    @Test(arguments: StoreBackend.all)
    func aFetchedHistoryIsRecordedOnceAndMarksKeepTheirLatestInstant(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let one = SubscriptionKey(environment: .production, originalTransactionId: "1")
        let two = SubscriptionKey(environment: .sandbox, originalTransactionId: "1")
        #expect(try f.store.historiesNotFetched([one, two]) == [one, two].sorted())
        var batch = IngestBatch(accountId: "alice", transactions: [Fixtures.transaction("1", original: "1")], at: Fixtures.t0)
        batch.historyFetched = [one]
        _ = try f.store.ingest(batch, policy: .transfer)
        _ = try f.store.ingest(batch, policy: .transfer)  // a second fetch of the same history changes nothing
        #expect(try f.store.historiesNotFetched([one, two]) == [two])

        #expect(try f.store.serviceMark("backfill") == nil)
        try f.store.setServiceMark("backfill", at: Fixtures.t0)
        let later = Fixtures.instant("2026-01-02T00:00:00Z")
        try f.store.setServiceMark("backfill", at: later)
        #expect(try f.store.serviceMark("backfill") == later)
        #expect(try f.store.serviceMark("other") == nil)
    }

    @Test(arguments: StoreBackend.all)
    func storedReceiptsComeInDigestOrderPageByPage(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var digests: [String] = []
        for n in 1...5 {
            let receipt = "UkVDRUlQVA\(n)"
            try f.ingest("alice", [Fixtures.transaction("\(n)", original: "\(n)")], receipt: receipt)
            digests.append(try ReceiptContent(data: receipt).digest)
        }
        var pages: [[String]] = []
        var after: String?
        while true {
            let page = try f.store.storedReceipts(after: after, limit: 2)
            if page.isEmpty { break }
            pages.append(page.map(\.digest))
            after = page.last?.digest
        }
        #expect(pages.map(\.count) == [2, 2, 1])
        #expect(pages.flatMap { $0 } == digests.sorted())
        #expect(try f.store.storedReceipts(after: nil, limit: 1).first?.data.hasPrefix("UkVDRUlQVA") == true)
    }

    /// A subscription past its expiry but in a grace period lasting until `notBefore` or later is
    /// polled; one whose grace period ended before is not.
    @Test(arguments: StoreBackend.all)
    func aGracePeriodReachingTheWindowIsPolled(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        func renewal(_ id: String, grace: String) -> RenewalInfo {
            RenewalInfo(environment: .production, originalTransactionId: id, autoRenewStatus: true, isInBillingRetry: false,
                        gracePeriodExpiresDate: Fixtures.instant(grace), source: .receipt)
        }
        try f.ingest("alice", [Fixtures.transaction("1", original: "1", expires: "2025-12-01T00:00:00Z"),
                               Fixtures.transaction("2", original: "2", expires: "2025-12-01T00:00:00Z")],
                     renewals: [renewal("1", grace: "2026-01-20T00:00:00Z"), renewal("2", grace: "2026-01-10T00:00:00Z")])
        let due = try f.store.subscriptionsToPoll(expiringBefore: Fixtures.instant("2026-03-01T00:00:00Z"),
                                                  notBefore: Fixtures.instant("2026-01-15T00:00:00Z"), limit: 10)
        #expect(due.map(\.subscription.originalTransactionId) == ["1"])
    }
}

import Entitle
import GatewayStore
import Testing
import Wire

/// E25 asks every backend to keep the Google Play subscription snapshots the gateway fetched, with
/// the facts they gave, one per change: a snapshot that says the same as its token's newest one is
/// not kept again, so the first instant something was seen stays.
@Suite struct StorePlaySnapshotTests {
    static func snapshot(_ token: String, at seconds: Int64, state: String = "SUBSCRIPTION_STATE_ACTIVE",
                         expiry: Int64 = 30 * 86_400, revokedAt: Instant? = nil) -> PlaySnapshotRecord {
        PlaySnapshotRecord(packageName: "com.example.magazine", purchaseToken: token, observedAt: Fixtures.t0.adding(seconds: seconds),
                           state: state, latestOrderId: "GPA.1", expiryTime: Fixtures.t0.adding(seconds: expiry),
                           startTime: Fixtures.t0, productId: "monthly", linkedPurchaseToken: nil,
                           cancellation: state == "SUBSCRIPTION_STATE_EXPIRED" ? "developerInitiatedCancellation" : nil,
                           revokedAt: revokedAt)
    }

    @Test(arguments: StoreBackend.all) func e25OnePerChangeOldestFirstWithTheFacts(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var batch = IngestBatch(accountId: "alice", transactions: [], at: Fixtures.t0)
        batch.playSnapshots = [Self.snapshot("tok-1", at: 0), Self.snapshot("tok-0", at: 0)]
        _ = try f.store.ingest(batch, policy: .transfer).stored()
        batch.playSnapshots = [
            Self.snapshot("tok-1", at: 60),                                         // says the same: not kept
            Self.snapshot("tok-1", at: 120, state: "SUBSCRIPTION_STATE_EXPIRED", expiry: 100),
            // Seen at the same instant as the one before, and saying more: kept after it.
            Self.snapshot("tok-1", at: 120, state: "SUBSCRIPTION_STATE_EXPIRED", expiry: 100, revokedAt: Fixtures.t0.adding(seconds: 100)),
        ]
        _ = try f.store.ingest(batch, policy: .transfer).stored()
        let kept = try f.store.playSnapshots(packageName: "com.example.magazine", purchaseToken: "tok-1", limit: 10)
        #expect(kept == [Self.snapshot("tok-1", at: 0), batch.playSnapshots[1], batch.playSnapshots[2]])
        #expect(try f.store.playSnapshots(packageName: "com.example.magazine", purchaseToken: "tok-1", limit: 2)
                == [batch.playSnapshots[1], batch.playSnapshots[2]])
        #expect(try f.store.playSnapshots(packageName: "com.example.magazine", purchaseToken: "tok-0", limit: 10).count == 1)
        #expect(try f.store.playSnapshots(packageName: "com.other.app", purchaseToken: "tok-1", limit: 10).isEmpty)
    }

    /// Two fetches committed out of order: the one seen first, saying the same, leaves its earlier
    /// instant on the kept row; one between two kept rows is compared with the row before it in time.
    @Test(arguments: StoreBackend.all) func e25TheEarliestInstantOfAChangeIsKeptWhateverTheCommitOrder(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        func keep(_ snapshot: PlaySnapshotRecord) throws {
            var batch = IngestBatch(accountId: "alice", transactions: [], at: Fixtures.t0)
            batch.playSnapshots = [snapshot]
            _ = try f.store.ingest(batch, policy: .transfer).stored()
        }
        let expired = Self.snapshot("tok-1", at: 200, state: "SUBSCRIPTION_STATE_EXPIRED", expiry: 150)
        for snapshot in [Self.snapshot("tok-1", at: 120), Self.snapshot("tok-1", at: 60), expired, Self.snapshot("tok-1", at: 100)] {
            try keep(snapshot)
        }
        #expect(try f.store.playSnapshots(packageName: "com.example.magazine", purchaseToken: "tok-1", limit: 10)
                == [Self.snapshot("tok-1", at: 60), expired])
        // True only when a row was added.
        let record = { (s: PlaySnapshotRecord) in try f.store.write { tx throws(StoreError) in try tx.recordPlaySnapshot(s) } }
        #expect(try record(Self.snapshot("tok-2", at: 0)) && !record(Self.snapshot("tok-2", at: 0)))
    }

    /// E25: whether a period was built from snapshots is kept with the transaction, and a reported
    /// period stored first is not replaced by a built one ingested later.
    @Test(arguments: StoreBackend.all) func e25ABuiltPeriodIsKeptAsBuiltAndNeverReplacesAReportedOne(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var built = Fixtures.transaction("t2", original: "o2")
        built.periodBuilt = true
        let reported = Fixtures.transaction("t1", original: "o1")
        try f.ingest("alice", [reported, built])
        #expect(try f.store.accountFacts("alice").transactions.sorted { $0.transactionId < $1.transactionId } == [reported, built])
        var rebuilt = reported
        rebuilt.periodBuilt = true
        rebuilt.purchaseDate = reported.purchaseDate.adding(seconds: 86_400)
        rebuilt.observedAt = (reported.observedAt ?? Fixtures.t0).adding(seconds: 86_400)
        try f.ingest("alice", [rebuilt])
        let stored = try f.store.accountFacts("alice").transactions.first { $0.transactionId == "t1" }
        #expect(stored?.purchaseDate == reported.purchaseDate && stored?.periodBuilt == false)
    }

    /// A batch E4 refuses keeps nothing, its snapshots included.
    @Test(arguments: StoreBackend.all) func e25ARefusedBatchKeepsNoSnapshot(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [Fixtures.transaction("t1", original: "o1")])
        var batch = IngestBatch(accountId: "bob", transactions: [Fixtures.transaction("t1", original: "o1")], at: Fixtures.t0)
        batch.playSnapshots = [Self.snapshot("tok-1", at: 0)]
        guard case .refused = try f.store.ingest(batch, policy: .keep) else {
            Issue.record("E4 keep did not refuse")
            return
        }
        #expect(try f.store.playSnapshots(packageName: "com.example.magazine", purchaseToken: "tok-1", limit: 10).isEmpty)
    }
}

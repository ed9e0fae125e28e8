import Testing
import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// E36 on every backend: the circulation evidence following an account's facts (derived after
/// their unit of work, every report draining what is due first: decision 96), and the download
/// records (batch, merge, erase, move).
@Suite struct StoreCirculationTests {
    static let catalog = Catalog(
        publications: [Publication(id: "monthly", title: "The Monthly")],
        products: [Product(id: "monthly.1m", kind: .autoRenewable, grants: ["monthly"], subscriptionGroup: "g", level: 1)],
        issues: ["2026-01-01", "2026-02-01", "2026-03-01"].map {
            Issue(publicationId: "monthly", id: String($0.prefix(7)), title: $0, publishedAt: Fixtures.instant("\($0)T00:00:00Z"))
        })

    private func basis(_ store: any GatewayStore, _ issueId: String, asOf: String = "2026-06-01T00:00:00Z") throws
        -> [String: CirculationEvidence] {
        let ref = IssueRef(publicationId: "monthly", issueId: issueId)
        let facts = try #require(try store.circulationFacts(ref, asOf: Fixtures.instant(asOf)))
        let window = try #require(facts.catalog.circulationWindow(of: ref, asOf: Fixtures.instant(asOf)))
        var items: [String: [CirculationEvidence]] = [:]
        for (account, item) in facts.evidence { items[account, default: []].append(item) }
        return items.compactMapValues { window.deciding($0) }
    }

    @Test(arguments: StoreBackend.all)
    func e36EvidenceFollowsTheFacts(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.store.importCatalog(Self.catalog)
        var trial = Fixtures.transaction("1", original: "o1", purchased: "2026-01-10T00:00:00Z", expires: "2026-02-10T00:00:00Z")
        trial.offer = .freeTrial
        try f.ingest("alice", [trial])
        // Unlocked at the trial's start (E13): January is a trial's; February lies in the trial.
        #expect(try basis(f.store, "2026-01")["alice"]?.basis == .trial)
        #expect(try basis(f.store, "2026-02")["alice"]?.basis == .trial)
        #expect(try basis(f.store, "2026-03")["alice"] == nil)
        let paid = Fixtures.transaction("2", original: "o1", purchased: "2026-02-10T00:00:00Z", expires: "2026-03-10T00:00:00Z")
        try f.ingest("alice", [paid])
        let march = try #require(try basis(f.store, "2026-03")["alice"])
        #expect(march.basis == .paid && march.store == .appStore && march.productId == "monthly.1m" && march.subscriptionId == "o1")
        // A refund since (E6) takes the paid period out.
        var refunded = paid
        refunded.revocationDate = Fixtures.instant("2026-02-20T00:00:00Z")
        try f.ingest(nil, [refunded])
        #expect(try basis(f.store, "2026-03")["alice"] == nil)
        #expect(try basis(f.store, "2026-02")["alice"]?.basis == .trial)
    }

    @Test(arguments: StoreBackend.all)
    func e36ARebuildGivesTheRowsTheUpkeepKept(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.store.importCatalog(Self.catalog)
        try f.ingest("alice", [Fixtures.transaction("1", original: "o1", purchased: "2026-01-10T00:00:00Z",
                                                    expires: "2026-03-10T00:00:00Z")])
        try f.store.drainReportRows()
        let kept = try f.store.read { tx throws(StoreError) in try tx.circulationEvidence(ofAccount: "alice") }
        try f.store.write { tx throws(StoreError) in try tx.replaceCirculationEvidence(ofAccount: "alice", with: []) }
        let upkeep = try #require(f.store.factsUpkeep?.upkeep(CirculationUpkeep.self))
        #expect(try upkeep.rebuild(f.store, batch: 2) == 3)
        #expect(try Set(f.store.read { tx throws(StoreError) in try tx.circulationEvidence(ofAccount: "alice") }) == Set(kept))
        #expect(!kept.isEmpty)
    }

    @Test(arguments: StoreBackend.all)
    func e36DownloadRecordsMergeEraseAndMove(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        let jan = IssueRef(publicationId: "monthly", issueId: "2026-01")
        func at(_ text: String) -> Instant { Fixtures.instant(text) }
        try store.recordDownloads([
            DownloadRecord(reader: .account("a"), issue: jan, firstAt: at("2026-01-02T00:00:00Z"), lastAt: at("2026-01-03T00:00:00Z"), downloads: 2),
            DownloadRecord(reader: .account("b"), issue: jan, firstAt: at("2026-01-01T00:00:00Z"), lastAt: at("2026-01-05T00:00:00Z"), downloads: 1),
            DownloadRecord(reader: .institution("lib"), issue: jan, firstAt: at("2026-01-01T00:00:00Z"), lastAt: at("2026-01-01T00:00:00Z"), downloads: 4),
        ])
        try store.recordDownloads([
            DownloadRecord(reader: .account("a"), issue: jan, firstAt: at("2026-01-01T00:00:00Z"), lastAt: at("2026-01-02T00:00:00Z"), downloads: 3),
        ])
        let a = try store.read { tx throws(StoreError) in try tx.downloadRecords(of: .account("a")) }
        #expect(a == [DownloadRecord(reader: .account("a"), issue: jan, firstAt: at("2026-01-01T00:00:00Z"),
                                     lastAt: at("2026-01-03T00:00:00Z"), downloads: 5)])
        try store.write { tx throws(StoreError) in try tx.moveDownloadRecords(from: "b", to: "a") }
        let merged = try store.read { tx throws(StoreError) in try tx.downloadRecords(of: .account("a")) }
        #expect(merged.first?.downloads == 6 && merged.first?.lastAt == at("2026-01-05T00:00:00Z"))
        #expect(try store.read { tx throws(StoreError) in try tx.downloadRecords(of: .account("b")) }.isEmpty)
        try store.write { tx throws(StoreError) in try tx.eraseDownloadRecords(ofAccount: "a") }
        #expect(try store.read { tx throws(StoreError) in try tx.downloadRecords(of: jan) }.map(\.reader) == [.institution("lib")])
    }

    /// E17: a product that comes to grant another publication changes everyone who owns it; the
    /// report's rows follow (the catalog's fingerprint differs, so they are derived again).
    @Test(arguments: StoreBackend.all)
    func e36ACatalogChangeOfWhatAProductGrantsReachesTheRows(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var catalog = Self.catalog
        catalog.publications.append(Publication(id: "weekly", title: "Weekly"))
        catalog.issues.append(Issue(publicationId: "weekly", id: "w1", title: "w1", publishedAt: Fixtures.instant("2026-02-05T00:00:00Z")))
        try f.store.importCatalog(catalog)
        try f.ingest("alice", [Fixtures.transaction("1", original: "o1", purchased: "2026-01-10T00:00:00Z",
                                                    expires: "2026-03-10T00:00:00Z")])
        let w1 = IssueRef(publicationId: "weekly", issueId: "w1")
        #expect(try f.store.circulationFacts(w1, asOf: Fixtures.instant("2026-06-01T00:00:00Z"))?.evidence.isEmpty == true)
        catalog.products[0].grants = ["monthly", "weekly"]
        try f.store.importCatalog(catalog)
        let after = try #require(try f.store.circulationFacts(w1, asOf: Fixtures.instant("2026-06-01T00:00:00Z")))
        #expect(after.evidence.map(\.accountId) == ["alice"])
    }

    /// Grants (E21) change the facts through their own writer: the rows follow.
    @Test(arguments: StoreBackend.all)
    func e36GrantsReachTheRows(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.store.importCatalog(Self.catalog)
        let grant = Grant(grantId: "g1", accountId: "bob", source: "print", externalId: "monthly:7", publications: ["monthly"],
                          start: Fixtures.instant("2026-01-20T00:00:00Z"), end: nil, createdAt: Fixtures.t0)
        _ = try f.store.give(grant)
        let decided = try #require(try basis(f.store, "2026-01")["bob"])
        #expect(decided.basis == .print && decided.subscriptionId == "g1", "unlocked at the grant's start (E13)")
        _ = try f.store.revokeGrant("g1", ofAccount: "bob", at: Fixtures.instant("2026-02-02T00:00:00Z"))
        #expect(try basis(f.store, "2026-02")["bob"] == nil, "a revoked grant never was")
    }

    /// A flush of 85 records (chunks of 64, 16, 4 and 1) with one pair twice within the first
    /// chunk's rows, which PostgreSQL refuses in one statement unless merged first: every pair is
    /// stored once with its counts added, on both backends.
    @Test(arguments: StoreBackend.all)
    func e36ABatchOfDownloadRecordsIsStoredInChunksWithRepeatedPairsMerged(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        let jan = IssueRef(publicationId: "monthly", issueId: "2026-01")
        let t0 = Fixtures.t0
        var batch = (0..<84).map { n in
            DownloadRecord(reader: .account("r\(n)"), issue: jan, firstAt: t0.adding(seconds: n), lastAt: t0.adding(seconds: n),
                           downloads: 1)
        }
        batch.insert(DownloadRecord(reader: .account("r3"), issue: jan, firstAt: t0.adding(seconds: 900),
                                    lastAt: t0.adding(seconds: 900), downloads: 2), at: 10)
        try store.recordDownloads(batch)
        try store.recordDownloads([DownloadRecord(reader: .account("r83"), issue: jan, firstAt: t0, lastAt: t0, downloads: 5)])
        let stored = try store.read { tx throws(StoreError) in try tx.downloadRecords(of: jan) }
        let total: Int64 = stored.map(\.downloads).reduce(0, +)
        #expect(stored.count == 84)
        #expect(total == 91, "84 ones, 2 more for r3, 5 more for r83")
        let byReader = Dictionary(uniqueKeysWithValues: stored.map { ($0.reader, $0) })
        #expect(byReader[.account("r3")] == DownloadRecord(reader: .account("r3"), issue: jan, firstAt: t0.adding(seconds: 3),
                                                          lastAt: t0.adding(seconds: 900), downloads: 3))
        #expect(byReader[.account("r83")] == DownloadRecord(reader: .account("r83"), issue: jan, firstAt: t0,
                                                           lastAt: t0.adding(seconds: 83), downloads: 6))
    }
}

import Testing
import Entitle
import GatewayStore
import IssueCatalog
import TestSupport
import Wire

/// Decision 96 on every backend: a change of an account's facts marks its reports' rows (E36,
/// E37) due in its own unit of work; a drain derives them after the commit; a report drains what
/// is still due before it reads; a derivation that never committed leaves its mark for the next.
@Suite struct StoreReportRowsDueTests {
    static let subscription = Fixtures.transaction("1", original: "o1", purchased: "2026-01-10T00:00:00Z",
                                                   expires: "2026-03-10T00:00:00Z")

    private func due(_ store: any GatewayStore) throws -> [String] {
        try store.read { tx throws(StoreError) in try tx.reportRowsDue(limit: 100) }
    }

    private func evidence(_ store: any GatewayStore, _ account: String) throws -> Set<CirculationEvidence> {
        Set(try store.read { tx throws(StoreError) in try tx.circulationEvidence(ofAccount: account) })
    }

    static let products = [StoreProductRef(store: .appStore, storeProductId: "monthly.1m")]

    /// E37's active subscriptions of the fixture's product on `date`, from the stored rows as they
    /// are (read without draining).
    private func active(_ store: any GatewayStore, on date: String) throws -> Int {
        let day = Fixtures.instant(date + "T00:00:00Z").millisecondsSinceEpoch / 86_400_000
        return try store.read { tx throws(StoreError) in
            var tally = SubscriberSeries.Tally(first: day, last: day, policy: .default) { _ in nil }
            try tx.tallySubscriberIntervals(products: Self.products, into: &tally)
            return tally.days().first?.active ?? 0
        }
    }

    /// The rows the upkeeps derive from the account's facts as stored now.
    private func derived(_ store: any GatewayStore, _ account: String) throws -> Set<CirculationEvidence> {
        let upkeep = try #require(store.factsUpkeep?.upkeep(CirculationUpkeep.self))
        return try store.read { tx throws(StoreError) in
            let catalog = try upkeep.catalog(tx)
            return Set(CirculationDerivation.evidence(catalog: catalog, facts: try tx.storedFacts(ofAccount: account).facts,
                                                      policy: upkeep.policy))
        }
    }

    /// The circulation catalog; alice with the fixture's subscription, bob with one of his own
    /// (January 20 to February 20).
    private func withAliceAndBob(_ backend: StoreBackend) throws -> IngestFixture {
        let f = try IngestFixture(backend)
        try f.store.importCatalog(StoreCirculationTests.catalog)
        try f.ingest("alice", [Self.subscription])
        try f.ingest("bob", [Fixtures.transaction("9", original: "o9", purchased: "2026-01-20T00:00:00Z",
                                                  expires: "2026-02-20T00:00:00Z")])
        return f
    }

    @Test(arguments: StoreBackend.all)
    func e36E37TheMarkIsWrittenWithTheFactsAndTheRowsAfterTheDrain(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.store.importCatalog(StoreCirculationTests.catalog)
        try f.ingest("alice", [Self.subscription])
        #expect(try due(f.store) == ["alice"], "marked in the ingest's unit of work")
        #expect(try evidence(f.store, "alice").isEmpty, "nothing derived in it")
        #expect(try active(f.store, on: "2026-02-01") == 0)

        #expect(try f.store.deriveDueReportRows(limit: 10) == 1)
        #expect(try due(f.store).isEmpty)
        let rows = try evidence(f.store, "alice")
        #expect(!rows.isEmpty)
        #expect(try rows == derived(f.store, "alice"))
        #expect(try active(f.store, on: "2026-02-01") == 1)
        #expect(try active(f.store, on: "2026-05-05") == 0)
        #expect(try f.store.deriveDueReportRows(limit: 10) == 0, "nothing left")

        // A renewal marks the account again; one drain derives every mark since.
        try f.ingest("alice", [Fixtures.transaction("2", original: "o1", purchased: "2026-03-10T00:00:00Z",
                                                    expires: "2026-04-10T00:00:00Z")])
        try f.ingest("alice", [Fixtures.transaction("3", original: "o1", purchased: "2026-04-10T00:00:00Z",
                                                    expires: "2026-05-10T00:00:00Z")])
        #expect(try due(f.store) == ["alice"])
        #expect(try f.store.drainReportRows(batch: 1) == 1)
        #expect(try evidence(f.store, "alice") == derived(f.store, "alice"))
        #expect(try active(f.store, on: "2026-05-05") == 1, "the renewals' period is derived")
    }

    @Test(arguments: StoreBackend.all)
    func e36E37AReportAnswersFromAWriteNoDrainHasDerived(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.store.importCatalog(StoreCirculationTests.catalog)
        try f.ingest("alice", [Self.subscription])
        let ref = IssueRef(publicationId: "monthly", issueId: "2026-02")
        let facts = try #require(try f.store.circulationFacts(ref, asOf: Fixtures.instant("2026-06-01T00:00:00Z")))
        #expect(Set(facts.evidence.map(\.accountId)) == ["alice"])
        #expect(try due(f.store).isEmpty, "the report drained the mark first")
        try f.ingest("bob", [Fixtures.transaction("9", original: "o9", purchased: "2026-01-20T00:00:00Z",
                                                  expires: "2026-02-20T00:00:00Z")])
        let day = Fixtures.instant("2026-02-01T00:00:00Z").millisecondsSinceEpoch / 86_400_000
        let days = try f.store.subscriberDays(products: Self.products,
                                              tally: SubscriberSeries.Tally(first: day, last: day, policy: .default) { _ in nil })
        #expect(days.first?.active == 2, "E37 drains first too")
    }

    /// A process that dies after the facts' commit and before their derivation commits leaves
    /// the mark: the next drain, in this process or another, derives the account.
    @Test(arguments: StoreBackend.all)
    func e36E37ADerivationThatNeverCommittedIsHealedByTheNextDrain(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.store.importCatalog(StoreCirculationTests.catalog)
        let upkeep = try #require(f.store.factsUpkeep)
        upkeep.replaceAll(with: [CirculationUpkeep(policy: .default), SubscriberIntervalsUpkeep(), Crash()])
        try f.ingest("alice", [Self.subscription])
        #expect(throws: StoreError.self) { try f.store.drainReportRows() }
        #expect(try due(f.store) == ["alice"], "the mark outlives the failed derivation")
        #expect(try evidence(f.store, "alice").isEmpty, "nothing half-written")
        #expect(try active(f.store, on: "2026-02-01") == 0)

        // The next process: the same database opened again, with the standard upkeeps.
        let again: any GatewayStore = try {
            if let file = f.opened.resources as? TemporaryDatabase { return try file.open() }
            return try #require(f.opened.resources as? TemporaryPostgresSchema).open()
        }()
        #expect(try again.drainReportRows() == 1)
        #expect(try due(f.store).isEmpty)
        #expect(!(try evidence(f.store, "alice").isEmpty))
        #expect(try evidence(f.store, "alice") == derived(again, "alice"))
        #expect(try active(f.store, on: "2026-02-01") == 1)
    }

    /// E35: a deleted reader derives no circulation rows (its store subscriptions stay in E37,
    /// decision 89); E32: a merged account's rows become its target's.
    @Test(arguments: StoreBackend.all)
    func e36DeletedAndMergedAccountsDeriveNoRows(_ backend: StoreBackend) throws {
        let f = try withAliceAndBob(backend)
        try f.store.drainReportRows()
        #expect(!(try evidence(f.store, "alice").isEmpty))
        #expect(!(try evidence(f.store, "bob").isEmpty))

        _ = try f.store.deleteAccount("alice", at: Fixtures.instant("2026-02-01T00:00:00Z"))
        _ = try f.store.write { tx throws(StoreError) in try tx.merge("bob", into: "carol", at: Fixtures.instant("2026-02-01T00:00:00Z")) }
        #expect(Set(try due(f.store)) == ["alice", "bob", "carol"])
        try f.store.drainReportRows()
        #expect(try evidence(f.store, "alice").isEmpty)
        #expect(try evidence(f.store, "bob").isEmpty)
        #expect(Set(try evidence(f.store, "carol").map(\.subscriptionId)) == ["o9"])
        #expect(try active(f.store, on: "2026-02-01") == 2, "both store subscriptions stay in E37")
    }

    /// One batch derives several accounts at once (on PostgreSQL their facts in one statement):
    /// each account's rows are those of its own facts, a deleted account's none (its grant
    /// included), and E37 counts every store subscription of the batch once.
    @Test(arguments: StoreBackend.all)
    func e36E37AccountsDerivedInOneBatchGetTheirOwnRows(_ backend: StoreBackend) throws {
        let f = try withAliceAndBob(backend)
        try f.ingest("bob", [Fixtures.transaction("10", original: "o9", purchased: "2026-02-20T00:00:00Z",
                                                  expires: "2026-03-20T00:00:00Z")])
        _ = try f.store.give(Grant(grantId: "g1", accountId: "carol", source: "crm", externalId: "x1", publications: ["monthly"],
                                   start: Fixtures.instant("2026-01-15T00:00:00Z"), end: nil, createdAt: Fixtures.t0))
        try f.store.createAccount(Fixtures.account("dave"))
        _ = try f.store.give(Grant(grantId: "g2", accountId: "dave", source: "crm", externalId: "x2", publications: ["monthly"],
                                   start: Fixtures.instant("2026-01-15T00:00:00Z"), end: nil, createdAt: Fixtures.t0))
        _ = try f.store.deleteAccount("dave", at: Fixtures.instant("2026-02-01T00:00:00Z"))
        #expect(Set(try due(f.store)) == ["alice", "bob", "carol", "dave"])

        #expect(try f.store.deriveDueReportRows(limit: 10) == 4, "one batch")
        for account in ["alice", "bob", "carol"] {
            let rows = try evidence(f.store, account)
            #expect(!rows.isEmpty, "\(account)")
            #expect(try rows == derived(f.store, account), "\(account)")
        }
        #expect(try evidence(f.store, "dave").isEmpty)
        #expect(try active(f.store, on: "2026-02-01") == 2, "alice's and bob's store subscriptions")
    }

    /// Decision 96: a batch clears exactly the marks it derived (in one statement), whatever its
    /// size, and leaves the others due for the next.
    @Test(arguments: StoreBackend.all)
    func e36E37ABatchClearsTheMarksItDerivedAndNoOther(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.store.importCatalog(StoreCirculationTests.catalog)
        let accounts = ["alice", "bob", "carol", "dave", "erin"]
        for id in accounts.dropFirst(3) { try f.store.createAccount(Fixtures.account(id)) }
        try f.store.write { tx throws(StoreError) in try tx.markReportRowsDue(ofAccounts: accounts) }
        #expect(try due(f.store) == accounts)
        #expect(try f.store.deriveDueReportRows(limit: 3) == 3)
        #expect(try due(f.store) == ["dave", "erin"])
        #expect(try f.store.deriveDueReportRows(limit: 1) == 1)
        #expect(try due(f.store) == ["erin"])
        #expect(try f.store.deriveDueReportRows(limit: 10) == 1)
        #expect(try due(f.store).isEmpty)
    }

    private func prepare(_ store: any GatewayStore) throws -> PreparedReportRows {
        let upkeep = try #require(store.factsUpkeep).installed
        return try #require(try store.read { tx throws(StoreError) in try tx.prepareDueReportRows(after: "", limit: 10, upkeep: upkeep) })
    }

    private func write(_ prepared: PreparedReportRows, _ store: any GatewayStore) throws -> Int {
        try store.writeDerived { tx throws(StoreError) in
            try tx.deriveDueReportRows(limit: 10, skippingLocked: false, prepared: prepared)
        }
    }

    /// Decision 130: rows computed on a snapshot are written for the accounts whose facts have
    /// not moved since; a change committed in between is derived from the facts as they stand.
    @Test(arguments: StoreBackend.all)
    func e36E37ARenewalCommittedAfterTheSnapshotIsDerivedFromTheFactsAsTheyStand(_ backend: StoreBackend) throws {
        let f = try withAliceAndBob(backend)
        let prepared = try prepare(f.store)
        #expect(prepared.accountIds == ["alice", "bob"])
        try f.ingest("alice", [Fixtures.transaction("2", original: "o1", purchased: "2026-03-10T00:00:00Z",
                                                    expires: "2026-04-10T00:00:00Z")])
        #expect(try write(prepared, f.store) == 2)
        #expect(try due(f.store).isEmpty)
        for account in ["alice", "bob"] {
            #expect(!(try evidence(f.store, account).isEmpty), "\(account)")
            #expect(try evidence(f.store, account) == derived(f.store, account), "\(account)")
        }
        #expect(try active(f.store, on: "2026-03-20") == 1, "E37: alice's renewal")
    }

    /// Decision 130: a catalog changed after the snapshot (here a product that now also grants a
    /// second publication) has every prepared account derived again under it.
    @Test(arguments: StoreBackend.all)
    func e36RowsPreparedUnderAnEarlierCatalogAreDerivedAgainUnderTheNewOne(_ backend: StoreBackend) throws {
        let f = try withAliceAndBob(backend)
        let prepared = try prepare(f.store)
        var catalog = StoreCirculationTests.catalog
        catalog.publications.append(Publication(id: "weekly", title: "The Weekly"))
        catalog.products[0].grants.append("weekly")
        try f.store.importCatalog(catalog)
        #expect(try write(prepared, f.store) == 2)
        for account in ["alice", "bob"] {
            let rows = try evidence(f.store, account)
            #expect(rows.contains { $0.publicationId == "weekly" }, "\(account)")
            #expect(try rows == derived(f.store, account), "\(account)")
        }
    }

    /// Decision 130: accounts another drain derived after the snapshot (their marks cleared) are
    /// left alone.
    @Test(arguments: StoreBackend.all)
    func e36E37APreparedBatchWhoseMarksWereClearedWritesNothing(_ backend: StoreBackend) throws {
        let f = try withAliceAndBob(backend)
        let prepared = try prepare(f.store)
        #expect(try f.store.drainReportRows() == 2)
        try f.store.write { tx throws(StoreError) in try tx.replaceCirculationEvidence(ofAccount: "bob", with: []) }
        #expect(try write(prepared, f.store) == 0)
        #expect(try evidence(f.store, "bob").isEmpty, "no mark, nothing written")
        #expect(try evidence(f.store, "alice") == derived(f.store, "alice"))
    }

    /// Alice and Bob marked by their facts, and three accounts without facts marked as a rebuild
    /// marks them.
    private func withFiveMarked(_ backend: StoreBackend) throws -> IngestFixture {
        let f = try withAliceAndBob(backend)
        let accounts = ["carol", "dave", "erin"]
        for id in accounts { try f.store.createAccount(Fixtures.account(id)) }
        try f.store.write { tx throws(StoreError) in try tx.markReportRowsDue(ofAccounts: accounts) }
        return f
    }

    /// Decision 130: a background drain's sweep derives every account marked when it starts, a
    /// batch per unit of work in id order, and clears their marks.
    @Test(arguments: StoreBackend.all)
    func e36E37ASweepDerivesEveryAccountMarkedBatchByBatch(_ backend: StoreBackend) throws {
        let f = try withFiveMarked(backend)
        #expect(try due(f.store) == ["alice", "bob", "carol", "dave", "erin"])
        #expect(try f.store.sweepDueReportRows(batch: 2) == 5)
        #expect(try due(f.store).isEmpty)
        for account in ["alice", "bob"] { #expect(try evidence(f.store, account) == derived(f.store, account), "\(account)") }
        #expect(try f.store.sweepDueReportRows(batch: 2) == 0, "nothing left")
    }

    /// A store that forwards to a backend has no upkeep of its own: the backend derives in its
    /// unit of work, and a sweep still derives every account marked, a batch at a time.
    @Test(arguments: StoreBackend.all)
    func e36E37ASweepThroughAForwardingStoreDerivesEveryAccountMarked(_ backend: StoreBackend) throws {
        let f = try withFiveMarked(backend)
        let forwarding = Forwarding(f.store)
        #expect(forwarding.factsUpkeep == nil)
        #expect(try forwarding.sweepDueReportRows(batch: 2) == 5)
        #expect(try due(f.store).isEmpty)
        #expect(try evidence(f.store, "alice") == derived(f.store, "alice"))
    }

    private final class Forwarding: GatewayStore {
        let base: any GatewayStore
        init(_ base: any GatewayStore) { self.base = base }
        func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R { try base.read(body) }
        func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R { try base.write(body) }
    }

    /// A derivation that fails, as a process dying before its commit would.
    private struct Crash: FactsUpkeeping {
        func prepare(_ accounts: [StoredAccountFacts], reading tx: any ReadTransaction) throws(StoreError) -> any PreparedUpkeep {
            throw .failed
        }
    }
}

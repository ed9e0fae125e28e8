import Foundation
import Synchronization
import Testing
import Entitle
import GatewayStore
import IssueCatalog
import PostgresStore
import TestSupport

/// What only the PostgreSQL backend promises: several processes (here, several stores, each with
/// its own pool, as processes would have) on one database; migrations; an unreachable server.
@Suite(.postgresCluster)
struct PostgresStoreTests {
    let schema: TemporaryPostgresSchema

    init() throws { schema = try TemporaryPostgresSchema() }

    /// Two products naming one store product (vocabulary: they name one product), saved at once
    /// through two stores: the first to commit keeps it, the other hears that it is taken, an
    /// outcome and never a failure (a unique violation from a concurrent commit runs the unit of
    /// work again, which then sees the winner).
    @Test func twoProductsNamingOneStoreProductAtOnceEndInAnOutcome() throws {
        let a = try schema.open(settings: PostgresSettings(poolSize: 8))
        let b = try schema.open(settings: PostgresSettings(poolSize: 8))
        try a.importCatalog(Fixtures.catalog)
        let results = Mutex<[Result<ProductUpsert, StoreError>]>([])
        concurrently(20) { index in
            let product = Product(id: index % 2 == 0 ? "raced.a" : "raced.b", storeProductId: "com.example.raced",
                                  kind: .free, grants: ["monthly"])
            let saved = Result(catching: { () throws(StoreError) in try (index % 4 < 2 ? a : b).upsertProduct(product) })
            results.withLock { $0.append(saved) }
        }
        let outcomes = results.withLock { $0 }
        #expect(outcomes.allSatisfy { (try? $0.get()) != nil }, "\(outcomes)")
        let winners = Set(outcomes.compactMap { result -> String? in
            if case .success(.storeProductTaken(let by)) = result { return by } else { return nil }
        })
        #expect(winners.count == 1, "\(outcomes)")
        #expect(outcomes.filter { if case .success(.saved) = $0 { true } else { false } }.count == 10, "\(outcomes)")
    }

    /// Two writers creating one row at once, through two stores as two processes would: one
    /// creates it and every other hears that it exists, an outcome and never a failure.
    @Test func oneRowCreatedManyTimesAtOnceIsCreatedOnce() throws {
        let a = try schema.open(settings: PostgresSettings(poolSize: 8))
        let b = try schema.open(settings: PostgresSettings(poolSize: 8))
        try a.importCatalog(Fixtures.catalog)
        let issue = Issue(publicationId: "monthly", id: "raced", title: "Raced", publishedAt: Fixtures.t0)
        let issues = Mutex<[Result<IssueInsertion, StoreError>]>([])
        let accounts = Mutex<[Result<AccountCreation, StoreError>]>([])
        concurrently(20) { index in
            let store = index % 2 == 0 ? a : b
            let inserted = Result(catching: { () throws(StoreError) in try store.insertIssue(issue) })
            let created = Result(catching: { () throws(StoreError) in try store.createAccount(Fixtures.account("zoe")) })
            issues.withLock { $0.append(inserted) }
            accounts.withLock { $0.append(created) }
        }
        let insertions = issues.withLock { $0 }, creations = accounts.withLock { $0 }
        #expect(insertions.filter { $0 == .success(.inserted) }.count == 1)
        #expect(insertions.filter { $0 == .success(.exists) }.count == 19, "\(insertions)")
        #expect(creations.filter { $0 == .success(.created) }.count == 1)
        #expect(creations.filter { $0 == .success(.taken) }.count == 19, "\(creations)")
    }

    /// E4 under `keep` across processes: 50 receipts for one subscription, half brought by alice
    /// through one store, half by bob through another, at once: exactly one account owns it, every
    /// accepted ingest says so, every other was refused for that owner.
    @Test func fiftyConcurrentReceiptsUnderKeepLeaveExactlyOneOwner() throws {
        let a = try schema.open(settings: PostgresSettings(poolSize: 8))
        let b = try schema.open(settings: PostgresSettings(poolSize: 8))
        for id in ["alice", "bob"] { try a.createAccount(Fixtures.account(id)) }
        let outcomes = Mutex<[Result<IngestOutcome, StoreError>]>([])
        let key = SubscriptionKey(environment: .production, originalTransactionId: "1")
        concurrently(50) { index in
            let (store, account) = index % 2 == 0 ? (a, "alice") : (b, "bob")
            let batch = IngestBatch(accountId: account, transactions: [Fixtures.transaction("t\(index)", original: "1")],
                                    at: Fixtures.t0)
            let outcome: Result<IngestOutcome, StoreError>
            do { outcome = .success(try store.ingest(batch, policy: .keep)) }
            catch let error as StoreError { outcome = .failure(error) }
            catch { outcome = .failure(.failed) }
            outcomes.withLock { $0.append(outcome) }
        }
        let owner = try #require(try a.owner(of: key))
        let all = outcomes.withLock { $0 }
        #expect(all.count == 50)
        for outcome in all {
            switch outcome {
            case .success(.stored(let result)): #expect(result.owners[key] == owner)
            case .success(.refused(let holder)): #expect(holder == owner)
            case .success(.unknownAccount), .failure: Issue.record("neither stored nor refused: \(outcome)")
            }
        }
        let accepted = all.filter { if case .success(.stored) = $0 { true } else { false } }.count
        #expect(accepted == 25)  // every receipt of the owner's, none of the other's
        #expect(try b.accountFacts(owner).transactions.count == 25)
        #expect(try b.accountFacts(owner == "alice" ? "bob" : "alice").transactions.isEmpty)
    }

    /// A notification delivered to two processes at once is taken by exactly one.
    @Test func aNotificationIsTakenOnceAcrossProcesses() throws {
        let stores = [try schema.open(), try schema.open()]
        try stores[0].createAccount(Fixtures.account("alice"))
        _ = try stores[0].ingest(IngestBatch(accountId: "alice", transactions: [Fixtures.transaction("1", original: "1")],
                                             at: Fixtures.t0), policy: .transfer)
        let taken = Atomic<Int>(0)
        concurrently(10) { index in
            var refund = Fixtures.transaction("1", original: "1")
            refund.revocationDate = Fixtures.instant("2026-01-10T00:00:00Z")
            let batch = IngestBatch(accountId: nil, transactions: [refund], notificationUUID: "uuid-refund", at: Fixtures.t0)
            if let result = try? stores[index % 2].ingest(batch, policy: .transfer).stored(), !result.duplicateNotification {
                taken.add(1, ordering: .relaxed)
            }
        }
        #expect(taken.load(ordering: .relaxed) == 1)
        #expect(try stores[1].accountFacts("alice").version == 2)
    }

    @Test func reopeningAppliesNoMigrationTwiceAndANewerSchemaIsRefused() throws {
        let first = try schema.open()
        let version = try first.schemaVersion()
        #expect(version >= 1)
        #expect(try schema.open().schemaVersion() == version)
        try schema.execute("INSERT INTO gateway_migrations (version, applied_at) VALUES (\(version + 1), 0)")
        #expect(throws: StoreError.failed) { try schema.open() }
    }

    /// A server that cannot be reached is retryable (`busy`), and what libpq said goes to the log only.
    @Test func anUnreachableServerIsBusyAndItsWordsStayInTheLog() throws {
        let logged = Mutex<[String]>([])
        let log = StoreLog { line in logged.withLock { $0.append(line) } }
        #expect(throws: StoreError.busy) {
            _ = try PostgresStore(url: "postgresql://gateway@127.0.0.1:1/postgres", log: log)
        }
        #expect(logged.withLock { $0.contains { $0.contains("127.0.0.1") } })
        #expect(!StoreError.busy.description.contains("127.0.0.1"))
    }

    /// A statement running past `statement_timeout` is cancelled and reported as retryable.
    @Test func aStatementPastItsTimeoutIsBusy() throws {
        // The set-up write runs without the short timeout: it takes the change log's lock, which
        // tests in other schemas of the same database take too, and may wait past 100 ms on a busy
        // machine. Only the write under test has it.
        try schema.open().createAccount(Fixtures.account("alice"))
        var settings = PostgresSettings(poolSize: 2, statementTimeoutMilliseconds: 100)
        settings.acquireTimeoutMilliseconds = 5_000
        let store = try schema.open(settings: settings)
        // Another session holds the account's row lock while the store tries to change it.
        let holder = try PostgresLockHolder(url: schema.url, sql: "BEGIN; SELECT 1 FROM accounts WHERE id = 'alice' FOR UPDATE")
        defer { holder.release() }
        #expect(throws: StoreError.busy) {
            try store.ingest(IngestBatch(accountId: "alice", transactions: [Fixtures.transaction("1", original: "1")],
                                         at: Fixtures.t0), policy: .transfer)
        }
    }

    /// E4 across processes: the owner read takes the subscription's ownership lock in its own
    /// statement, so while another session holds it an ingest for that subscription waits (here
    /// past its statement timeout: busy), and one for another subscription does not.
    @Test func e4TheOwnerReadWaitsForTheSubscriptionsOwnershipLock() throws {
        try schema.open().createAccount(Fixtures.account("alice"))
        var settings = PostgresSettings(poolSize: 2, statementTimeoutMilliseconds: 1_000)
        settings.acquireTimeoutMilliseconds = 5_000
        let store = try schema.open(settings: settings)
        // Advisory locks are the database's, not the schema's: a subscription no other test uses.
        let original = "e4-lock-\(schema.name)"
        let holder = try PostgresLockHolder(url: schema.url, sql: """
            BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('appStore:production:\(original)', 0))
            """)
        defer { holder.release() }
        #expect(throws: StoreError.busy) {
            try store.ingest(IngestBatch(accountId: "alice", transactions: [Fixtures.transaction("1", original: original)],
                                         at: Fixtures.t0), policy: .transfer)
        }
        let other = try store.ingest(IngestBatch(accountId: "alice", transactions: [Fixtures.transaction("2", original: "\(original)-other")],
                                                 at: Fixtures.t0), policy: .transfer)
        #expect(try other.stored().owners.values.allSatisfy { $0 == "alice" })
    }

    /// Decision 121: the reports' drain takes turns of its own beside the writer's groups, so it
    /// derives while a unit of work that takes facts holds the writer's group open.
    @Test func theReportsDrainDerivesWhileTheWritersGroupIsOpen() throws {
        let store = try schema.open(settings: PostgresSettings(poolSize: 4))
        try store.importCatalog(Fixtures.catalog)
        try store.createAccount(Fixtures.account("alice"))
        _ = try store.ingest(IngestBatch(accountId: "alice", transactions: [Fixtures.transaction("1", original: "d1")],
                                         at: Fixtures.t0), policy: .transfer)
        let (inside, release, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        Thread.detachNewThread {
            _ = try? store.write { _ throws(StoreError) in
                inside.signal()
                // Bounded, so a drain queued behind this group fails the test instead of hanging it.
                _ = release.wait(timeout: .now() + 30)
            }
            done.signal()
        }
        inside.wait()
        #expect(try store.deriveDueReportRows(limit: 10) == 1)
        #expect(done.wait(timeout: .now()) == .timedOut, "derived while the writer's group was still open")
        release.signal()
        done.wait()
        #expect(try store.read { tx throws(StoreError) in try tx.reportRowsDue(limit: 10) }.isEmpty)
    }

    /// One holder of a job's lease at a time; when the holder's session ends (its process died)
    /// or it lets go, the next asker gets it.
    @Test func aJobLeaseHasOneHolderAndPassesOnWhenItsSessionEnds() throws {
        let (first, second) = (try schema.open(), try schema.open())
        let leaseA = first.makeJobLease(name: "poller")
        let leaseB = second.makeJobLease(name: "poller")
        #expect(leaseA.tryHold())
        #expect(leaseA.tryHold())
        #expect(!leaseB.tryHold())
        #expect(second.makeJobLease(name: "other job").tryHold())
        leaseA.release()
        #expect(leaseB.tryHold())
        #expect(!leaseA.tryHold())
        // B's session is killed, as when its process dies: A gets the lease on its next ask. The
        // timeout makes the kill wait until the backend has exited (its lock gone), not just signalled.
        try TemporaryPostgresSchema.execute("""
            SELECT pg_terminate_backend(pid, 10000) FROM pg_locks WHERE locktype = 'advisory' AND granted
            AND pid <> pg_backend_pid() AND objid = (hashtextextended('\(schema.name):issue-gateway job poller', 0) & 4294967295)::oid
            """, on: schema.url)
        #expect(leaseA.tryHold())
        #expect(!leaseB.tryHold())
    }

    /// The change log in commit order, and which entries this process wrote.
    @Test func theChangeLogListsEveryInvalidatingChangeAndKnowsItsOwn() throws {
        let (writer, other) = (try schema.open(), try schema.open())
        let (writerFeed, otherFeed) = (writer.makeChangeFeed(), other.makeChangeFeed())
        let start = try otherFeed.latestSequence()
        try writer.importCatalog(Fixtures.catalog)
        try writer.createAccount(Fixtures.account("alice"))
        try writer.createAPIKey(APIKey(keyId: "k", role: .service, secretHash: "h", createdAt: Fixtures.t0))
        _ = try writer.ingest(IngestBatch(accountId: "alice", transactions: [Fixtures.transaction("1", original: "1")],
                                          at: Fixtures.t0), policy: .transfer)
        try writer.deleteAPIKey(keyId: "k")
        let batch = try otherFeed.changes(after: start, limit: 100)
        #expect(batch.changes.map(\.change) == [.catalog, .apiKey(keyId: "k"), .accountFacts(accountId: "alice"),
                                                 .apiKey(keyId: "k")])
        #expect(batch.changes.map(\.sequence) == batch.changes.map(\.sequence).sorted())
        #expect(batch.changes.allSatisfy { !otherFeed.madeHere($0.sequence) })
        #expect(batch.changes.allSatisfy { writerFeed.madeHere($0.sequence) })
        #expect(batch.changes.allSatisfy { !writerFeed.madeHere($0.sequence) }, "asked once per entry")
    }

    /// Decision 127: two write groups at once. A group held open after its unit changed alice's
    /// facts does not hold back the other: bob's change commits meanwhile, and the change log
    /// lists the two in commit order, bob's first. With the change log's lock taken in the unit
    /// (held to the commit), bob's write would wait for alice's group.
    @Test func twoWriteGroupsCommitSideBySideAndTheChangeLogKeepsTheirCommitOrder() throws {
        var settings = PostgresSettings(poolSize: 4)
        settings.writeGroups = 2
        let store = try schema.open(settings: settings)
        try store.createAccount(Fixtures.account("alice"))
        try store.createAccount(Fixtures.account("bob"))
        let feed = try schema.open().makeChangeFeed()
        let start = try feed.latestSequence()
        let (inside, release, done) = (Gate(), Gate(), Gate())
        Thread.detachNewThread {
            _ = try? store.write { tx throws(StoreError) in
                _ = try tx.bumpFactsVersion(ofAccount: "alice")
                inside.open()
                release.wait(seconds: 30)
            }
            done.open()
        }
        #expect(inside.wait(seconds: 10))
        _ = try store.write { tx throws(StoreError) in try tx.bumpFactsVersion(ofAccount: "bob") }
        #expect(try feed.changes(after: start, limit: 10).changes.map(\.change) == [.accountFacts(accountId: "bob")],
                "bob's group committed while alice's was open")
        release.open()
        #expect(done.wait(seconds: 10))
        #expect(try feed.changes(after: start, limit: 10).changes.map(\.change)
                == [.accountFacts(accountId: "bob"), .accountFacts(accountId: "alice")])
    }

    /// The changes a group writes at its commit are its kept units' only: a unit rolled back to
    /// its savepoint takes its change with it, though the group's others commit.
    @Test func aRolledBackUnitsChangeIsNotLoggedWithItsGroup() throws {
        var settings = PostgresSettings(poolSize: 4)
        settings.writeGroups = 1
        settings.groupCommit = GroupCommitLimits(maxOpen: .seconds(30))
        let store = try schema.open(settings: settings)
        for id in ["alice", "bob", "carol"] { try store.createAccount(Fixtures.account(id)) }
        let feed = store.makeChangeFeed()
        let start = try feed.latestSequence()
        let threads = DispatchGroup()
        let failed = Mutex<StoreError?>(nil)
        _ = try store.write { tx throws(StoreError) in
            _ = try tx.bumpFactsVersion(ofAccount: "alice")
            // Queued while this unit holds the group: they run next in it, bob's fails.
            for (index, id) in ["bob", "carol"].enumerated() {
                threads.enter()
                Thread.detachNewThread {
                    do throws(StoreError) {
                        try store.write { tx throws(StoreError) in
                            _ = try tx.bumpFactsVersion(ofAccount: id)
                            if id == "bob" { throw .failed }
                        }
                    } catch { failed.withLock { $0 = error } }
                    threads.leave()
                }
                #expect(eventually(seconds: 10) { store.queuedWrites == index + 1 })
            }
        }
        threads.wait()
        #expect(failed.withLock { $0 } == .failed)
        #expect(try feed.changes(after: start, limit: 10).changes.map(\.change)
                == [.accountFacts(accountId: "alice"), .accountFacts(accountId: "carol")])
    }

    /// A follower wakes at another process's commit, not at its own: its caches heard of its own
    /// changes when they were made, so a busy writer does not make it read the log at every
    /// commit. (The lower bound only fails when the wait is cut short by the own commit.)
    @Test func theChangeFeedWakesAtAnotherProcessesCommitNotAtItsOwn() throws {
        let (here, there) = (try schema.open(), try schema.open())
        try here.createAccount(Fixtures.account("alice"))
        let feed = here.makeChangeFeed()
        feed.waitForChanges(timeout: .milliseconds(1))  // listening from here on
        _ = try here.write { tx throws(StoreError) in try tx.bumpFactsVersion(ofAccount: "alice") }
        let ownWait = ContinuousClock.now
        feed.waitForChanges(timeout: .milliseconds(500))
        #expect(ContinuousClock.now - ownWait >= .milliseconds(450), "woken by its own commit")
        _ = try there.write { tx throws(StoreError) in try tx.bumpFactsVersion(ofAccount: "alice") }
        let foreignWait = ContinuousClock.now
        feed.waitForChanges(timeout: .seconds(30))
        #expect(ContinuousClock.now - foreignWait < .seconds(20), "not woken by the other process's commit")
    }

    /// A history cursor never passes an event still to commit: two processes append operator
    /// actions to one account at once while a reader follows the history by cursor; the reader
    /// ends up with every event (a sequence committed after a higher one would be skipped).
    @Test func aHistoryReaderFollowingTheCursorMissesNoConcurrentEvent() throws {
        let writers = [try schema.open(settings: PostgresSettings(poolSize: 4)),
                       try schema.open(settings: PostgresSettings(poolSize: 4))]
        let reader = try schema.open(settings: PostgresSettings(poolSize: 1))
        try writers[0].createAccount(Fixtures.account("alice"))
        let writerCount = 8, perWriter = 40
        let written = Atomic<Int>(0)
        let finishedWriters = Atomic<Int>(0)
        let seen = Mutex<[Int64]>([])
        concurrently(writerCount + 1) { index in
            guard index < writerCount else {
                var cursor: Int64?
                var all: [Int64] = []
                while true {
                    // Read after the writers are done once more, so the last page is complete.
                    let finished = finishedWriters.load(ordering: .acquiring) == writerCount
                    guard let page = try? reader.history(ofAccount: "alice", after: cursor, limit: 50) else { break }
                    all += page.events.map(\.sequence)
                    cursor = all.last ?? cursor
                    if finished && page.next == nil { break }
                }
                seen.withLock { $0 = all }
                return
            }
            for n in 0..<perWriter {
                if (try? writers[index % 2].recordOperatorAction("action-\(index)-\(n)", on: "alice", at: Fixtures.t0)) != nil {
                    written.add(1, ordering: .relaxed)
                }
            }
            finishedWriters.add(1, ordering: .releasing)
        }
        #expect(written.load(ordering: .relaxed) == writerCount * perWriter)
        #expect(seen.withLock { $0.count } == writerCount * perWriter)
    }

    /// Publication events across processes: two processes announce the due issues at once, each
    /// issue fires once (one webhook event, one push job); then the outbox head, claimed by ten
    /// workers of both at once, is leased to exactly one of them.
    @Test func anIssueIsAnnouncedOnceAndTheOutboxHeadLeasedOnceAcrossProcesses() throws {
        let stores = [try schema.open(), try schema.open()]
        try stores[0].importCatalog(Fixtures.catalog)
        let policy = EventPolicy(webhooks: true, pushes: true)
        let now = Fixtures.instant("2100-01-01T00:00:00Z")
        let announced = Mutex<[IssueRef]>([])
        concurrently(6) { index in
            let issues = (try? stores[index % 2].announceDueIssues(now: now, policy: policy, limit: 100)) ?? []
            announced.withLock { $0 += issues.map(\.ref) }
        }
        let refs = announced.withLock { $0 }
        let due = Fixtures.catalog.issues.filter { $0.retractedAt == nil }.map(\.ref)
        #expect(!due.isEmpty)
        #expect(refs.count == due.count && Set(refs) == Set(due))
        #expect(try stores[1].outboxLength() == due.count)
        #expect(try stores[1].openPushJobs().count == due.count)

        let delivered = Atomic<Int>(0)
        concurrently(10) { index in
            if case .deliver = try? stores[index % 2].claimOutboxHead(owner: "worker-\(index)", now: now, lease: .seconds(60)) {
                delivered.add(1, ordering: .relaxed)
            }
        }
        #expect(delivered.load(ordering: .relaxed) == 1)
    }
}

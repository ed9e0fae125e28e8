import Foundation
import Synchronization
import Testing
import Entitle
import GatewayStore
import PostgresStore
import SQLiteStore
import TestSupport
import Wire

/// Group commit on every backend, through the store's public API (decision 109): write units of
/// work queued for the writer share one commit, each in its own savepoint.
@Suite struct StoreGroupCommitTests {
    @Test(arguments: StoreBackend.all)
    func manyConcurrentWritesAreAllDurableAndVisible(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        let outcomes = Mutex<[Result<AccountCreation, StoreError>]>([])
        concurrently(40) { index in
            let created = Result(catching: { () throws(StoreError) in try store.createAccount(Fixtures.account("a\(index)")) })
            outcomes.withLock { $0.append(created) }
        }
        #expect(outcomes.withLock { $0 }.allSatisfy { $0 == .success(.created) })
        // Another store on the same database (another process) reads what was acknowledged.
        let other = try reopen(opened)
        for index in 0..<40 { #expect(try other.account(id: "a\(index)") != nil, "a\(index)") }
    }

    /// One unit fails among units sharing its group: its caller gets its error, nothing of it is
    /// left (account, facts, owner, version), and the others' work is committed.
    @Test(arguments: StoreBackend.all)
    func aFailingUnitInAGroupFailsAloneAndLeavesNothingHalfWritten(_ backend: StoreBackend) throws {
        let (opened, results) = try fourUnitsInOneGroup(backend) { id, tx throws(StoreError) in
            let transaction = Fixtures.transaction("t-\(id)", original: "o-\(id)")
            try tx.save(transaction)
            try tx.setOwner(id, of: transaction.subscriptionKey, at: Fixtures.t0)
            try tx.bumpFactsVersion(ofAccount: id)
            _ = try tx.insert(Fixtures.account("new-\(id)"))
            if id == "c" { throw .failed }
        }
        #expect(results == ["a": .success("ok"), "b": .success("ok"), "c": .failure(.failed), "d": .success("ok")])
        let other = try reopen(opened)
        for id in ["b", "d"] {
            #expect(try other.accountFacts(id).transactions.map(\.transactionId) == ["t-\(id)"])
            #expect(try other.accountFacts(id).version == 1)
            #expect(try other.account(id: "new-\(id)") != nil)
        }
        #expect(try other.accountFacts("c") == VersionedFacts(facts: AccountFacts(), version: 0))
        #expect(try other.account(id: "new-c") == nil)
        #expect(try other.owner(of: Fixtures.transaction("t-c", original: "o-c").subscriptionKey) == nil)
        #expect(try other.account(id: "new-a") != nil)
    }

    /// A unit whose last write the database refuses (an event for an account that does not exist)
    /// fails alone, where the backend sends that write with the unit's end and not at once
    /// (PostgreSQL, decision 131), as where it sends it at once: the units after it in the group
    /// are kept, and nothing of it is.
    @Test(arguments: StoreBackend.all)
    func aUnitWhoseLastWriteIsRefusedFailsAlone(_ backend: StoreBackend) throws {
        let (opened, results) = try fourUnitsInOneGroup(backend) { id, tx throws(StoreError) in
            try tx.save(Fixtures.transaction("t-\(id)", original: "o-\(id)"))
            try tx.bumpFactsVersion(ofAccount: id)
            try tx.append(HistoryEvent(accountId: id == "c" ? "ghost" : id, at: Fixtures.t0, kind: .operatorAction,
                                       source: .admin, details: JSONObject()))
        }
        #expect(results == ["a": .success("ok"), "b": .success("ok"), "c": .failure(.failed), "d": .success("ok")])
        let other = try reopen(opened)
        for id in ["a", "b", "d"] {
            #expect(try other.accountFacts(id).version == 1)
            #expect(try other.history(ofAccount: id, after: nil, limit: 10)?.events.map(\.kind) == [.operatorAction])
        }
        #expect(try other.accountFacts("c").version == 0)
        for id in ["b", "c"] {
            let key = TransactionKey(environment: .production, transactionId: "t-\(id)")
            let stored = try other.read { tx throws(StoreError) in try tx.transaction(key) }
            #expect((stored != nil) == (id == "b"), "t-\(id)")
        }
    }

    /// A caller's units of work take effect in the order it made them, while other callers' units
    /// share their commits.
    @Test(arguments: StoreBackend.all)
    func oneCallersWritesKeepTheirOrder(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        try store.createAccount(Fixtures.account("reader"))
        try store.createAccount(Fixtures.account("noise"))
        let key = Fixtures.transaction("1", original: "1").subscriptionKey
        try store.write { tx throws(StoreError) in try tx.save(Fixtures.transaction("1", original: "1")) }
        concurrently(9) { index in
            if index == 0 {
                for step in 1...30 {
                    _ = try? store.write { tx throws(StoreError) in
                        try tx.setOwner(step % 2 == 0 ? "reader" : "noise", of: key, at: Fixtures.t0)
                        try tx.bumpFactsVersion(ofAccount: "reader")
                    }
                }
            } else {
                for _ in 0..<10 { _ = try? store.write { tx throws(StoreError) in try tx.bumpFactsVersion(ofAccount: "noise") } }
            }
        }
        #expect(try store.owner(of: key) == "reader")  // the 30th, even step's
        #expect(try store.accountFacts("reader").version == 30)
        #expect(try store.accountFacts("noise").version == 80)
    }

    /// Units `a` to `d`, each of the account of its id, sharing one group on `backend` (`a` holds
    /// the writer while the others queue); each runs `body(id, tx)`.
    private func fourUnitsInOneGroup(_ backend: StoreBackend,
                                     _ body: @escaping @Sendable (String, any WriteTransaction) throws(StoreError) -> Void)
        throws -> (OpenedStore, [String: Result<String, StoreError>]) {
        let opened = try openWithPatientGroups(backend)
        for id in ["a", "b", "c", "d"] { try opened.store.createAccount(Fixtures.account(id)) }
        return (opened, holdingTheWriter(opened.store, whileQueued: ["b", "c", "d"], body))
    }

    /// Unit `a` holds the writer until the `queued` units (threads of their own, in that order)
    /// wait for their turn, so all of them share one group; each runs `body(id, tx)`.
    private func holdingTheWriter(_ store: any GatewayStore, whileQueued queued: [String],
                                  _ body: @escaping @Sendable (String, any WriteTransaction) throws(StoreError) -> Void)
        -> [String: Result<String, StoreError>] {
        let queue = store as! any WriteQueueing
        let results = Mutex<[String: Result<String, StoreError>]>([:])
        let threads = DispatchGroup()
        let first = Result(catching: { () throws(StoreError) in
            try store.write { tx throws(StoreError) in
                for (index, id) in queued.enumerated() {
                    threads.enter()
                    Thread {
                        let result = Result(catching: { () throws(StoreError) in
                            try store.write { tx throws(StoreError) in try body(id, tx) }
                        })
                        results.withLock { $0[id] = result.map { "ok" } }
                        threads.leave()
                    }.start()
                    let deadline = ContinuousClock.now + .seconds(10)
                    while queue.queuedWrites < index + 1, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
                    #expect(queue.queuedWrites == index + 1, "unit \(id) queued behind the held group")
                }
                try body("a", tx)
            }
        })
        results.withLock { $0["a"] = first.map { "ok" } }
        threads.wait()
        return results.withLock { $0 }
    }

    /// `backend`'s store with groups that stay open while a test builds its queue on a busy machine.
    private func openWithPatientGroups(_ backend: StoreBackend) throws -> OpenedStore {
        let limits = GroupCommitLimits(maxOpen: .seconds(30))
        if backend.name == StoreBackend.postgres.name {
            let schema = try TemporaryPostgresSchema()
            var settings = PostgresSettings(poolSize: 4)
            settings.groupCommit = limits
            // One group at a time, so the queued units join the held one (decision 127).
            settings.writeGroups = 1
            return OpenedStore(store: try schema.open(settings: settings), resources: schema)
        }
        let file = TemporaryDatabase()
        return OpenedStore(store: try SQLiteStore(path: file.path, groupCommit: limits), resources: file)
    }

    /// Another store on `opened`'s database, as another process would open it.
    private func reopen(_ opened: OpenedStore) throws -> any GatewayStore {
        if let file = opened.resources as? TemporaryDatabase { return try file.open() }
        return try #require(opened.resources as? TemporaryPostgresSchema).open()
    }

}

import Foundation
import Synchronization
import Testing
import GatewayStore
import TestSupport

/// `GroupCommit` against a backend that records what it is asked: who shares a commit, what a
/// failed unit or a failed commit does to the others, a unit that must run again.
@Suite struct GroupCommitTests {
    /// Limits under which a group stays open while the test builds its queue on a busy machine.
    private let patient = GroupCommitLimits(maxOpen: .seconds(30))

    @Test func unitsQueuedDuringOneUnitShareItsCommit() throws {
        let backend = RecordingTransactions()
        let commit = GroupCommit(backend, limits: patient)
        let results = holdingTheWriter(commit, whileQueued: ["b", "c", "d", "e"]) { _ in }
        #expect(results.values.allSatisfy { $0 == .success(1) }, "\(results)")
        #expect(backend.events == ["begin", "unit a", "next(kept)", "unit b", "next(kept)", "unit c", "next(kept)", "unit d",
                                   "next(kept)", "unit e", "commit"])
    }

    /// Decision 126: the writer is combined. The caller holding it runs the queued units on its
    /// own thread, so a group's units follow each other without a thread switch.
    @Test func theQueuedUnitsOfAGroupRunOnItsCombinersThread() throws {
        let commit = GroupCommit(RecordingTransactions(), limits: patient)
        let threads = Mutex<[String: UInt]>([:])
        let results = holdingTheWriter(commit, whileQueued: ["b", "c"]) { id in
            threads.withLock { $0[id] = UInt(bitPattern: Int(pthread_self())) }
        }
        #expect(results.values.allSatisfy { $0 == .success(1) }, "\(results)")
        let seen = threads.withLock { $0 }
        #expect(seen.count == 3 && Set(seen.values).count == 1, "\(seen)")
    }

    /// Decision 127: a backend that allows two groups at once gets a second caller's unit in a
    /// group of its own while the first is open; a third waits for one of them.
    @Test func aBackendAllowingTwoGroupsRunsTwoAtOnceAndQueuesTheThird() throws {
        let backend = RecordingTransactions(concurrentGroups: 2)
        let commit = GroupCommit(backend, limits: patient)
        let (inside, release) = (Gate(), Gate())
        let threads = DispatchGroup()
        for id in ["a", "b", "c"] {
            threads.enter()
            Thread {
                _ = try? commit.run { backend throws(StoreError) in
                    backend.record("unit \(id)")
                    if id != "c" {
                        inside.open()
                        release.wait(seconds: 30)
                    }
                }
                threads.leave()
            }.start()
            if id != "c" { #expect(inside.wait(seconds: 10), "unit \(id) ran while the other group was open") }
        }
        waitUntil { commit.queuedUnits == 1 }
        #expect(commit.queuedUnits == 1)
        #expect(backend.events == ["begin", "unit a", "begin", "unit b"])
        release.open()
        release.open()
        threads.wait()
        #expect(backend.events.filter { $0 == "unit c" }.count == 1)
        #expect(backend.events.filter { $0 == "commit" }.count == 2, "c ran in the group of a or b")
    }

    @Test func aFailingUnitFailsAloneAndTheNextReusesItsSavepoint() throws {
        let backend = RecordingTransactions()
        let commit = GroupCommit(backend, limits: patient)
        let results = holdingTheWriter(commit, whileQueued: ["b", "c", "d"]) { id throws(StoreError) in
            if id == "c" { throw .failed }
        }
        #expect(results["a"] == .success(1) && results["b"] == .success(1) && results["d"] == .success(1), "\(results)")
        #expect(results["c"] == .failure(.failed))
        #expect(backend.events == ["begin", "unit a", "next(kept)", "unit b", "next(kept)", "unit c", "rollback unit",
                                   "next(rolled back)", "unit d", "commit"])
    }

    @Test func aFailedCommitFailsEveryUnitOfItsGroup() throws {
        let backend = RecordingTransactions(commitFailure: .failed)
        let commit = GroupCommit(backend, limits: patient)
        let results = holdingTheWriter(commit, whileQueued: ["b", "c"]) { _ in }
        #expect(results == ["a": .failure(.failed), "b": .failure(.failed), "c": .failure(.failed)])
        #expect(backend.events.suffix(2) == ["commit", "abandon"])
    }

    /// A unit the backend says may succeed in a new transaction ends its group (the units before
    /// it commit, once) and runs again in a group of its own.
    @Test func aUnitThatMustRunAgainEndsItsGroupAndRunsAgainAlone() throws {
        let backend = RecordingTransactions()
        let commit = GroupCommit(backend, limits: patient)
        let tries = Mutex(0)
        let results = holdingTheWriter(commit, whileQueued: ["b"]) { id throws(StoreError) in
            if id == "b", tries.withLock({ $0 += 1; return $0 }) == 1 { throw .busy }
        }
        #expect(results == ["a": .success(1), "b": .success(2)])
        #expect(backend.events == ["begin", "unit a", "next(kept)", "unit b", "rollback unit", "commit",
                                   "begin", "unit b", "commit"])
    }

    /// A commit that collided (a serialization failure) runs its group's units again: the
    /// collision is asked of the backend before the group is rolled back.
    @Test func aCommitThatCollidedRunsItsUnitsAgain() throws {
        let backend = RecordingTransactions(commitFailure: .busy, failingCommits: 1)
        let commit = GroupCommit(backend, limits: patient)
        let attempts = Mutex(0)
        let result = try commit.run { _ throws(StoreError) in attempts.withLock { $0 += 1; return $0 } }
        #expect(result == 2)
        #expect(backend.events == ["begin", "commit", "abandon", "begin", "commit"])
    }

    @Test func aGroupHoldsAtMostItsLimitOfUnits() throws {
        let backend = RecordingTransactions()
        let commit = GroupCommit(backend, limits: GroupCommitLimits(maxUnits: 2, maxOpen: .seconds(30)))
        let results = holdingTheWriter(commit, whileQueued: ["b", "c", "d"]) { _ in }
        #expect(results.values.allSatisfy { $0 == .success(1) }, "\(results)")
        #expect(backend.events.filter { $0 == "commit" }.count == 2)
        #expect(backend.events.filter { $0 == "begin" }.count == 2)
    }

    @Test func aGroupOpenPastItsTimeCommitsThoughOthersWait() throws {
        let backend = RecordingTransactions()
        let commit = GroupCommit(backend, limits: GroupCommitLimits(maxOpen: .zero))
        let results = holdingTheWriter(commit, whileQueued: ["b"]) { _ in }
        #expect(results == ["a": .success(1), "b": .success(1)])
        #expect(backend.events == ["begin", "unit a", "commit", "begin", "unit b", "commit"])
    }

    @Test func aWriterAloneCommitsAtOnce() throws {
        let backend = RecordingTransactions()
        let commit = GroupCommit(backend, limits: patient)
        for _ in 0..<3 { #expect(try commit.run { _ throws(StoreError) in 7 } == 7) }
        #expect(backend.events == Array(repeating: ["begin", "commit"], count: 3).flatMap { $0 })
    }

    /// Unit `a` holds the writer until `queued` units (each on a thread of its own, queued in
    /// that order) wait for their turn; each unit runs `body(id)` and answers its attempt number.
    private func holdingTheWriter(_ commit: GroupCommit<RecordingTransactions>, whileQueued queued: [String],
                                  _ body: @escaping @Sendable (String) throws(StoreError) -> Void)
        -> [String: Result<Int, StoreError>] {
        let results = Mutex<[String: Result<Int, StoreError>]>([:])
        let attempts = Mutex<[String: Int]>([:])
        let unit: @Sendable (String) -> Void = { id in
            let result = Result(catching: { () throws(StoreError) in
                try commit.run { backend throws(StoreError) in
                    backend.record("unit \(id)")
                    let attempt = attempts.withLock { $0[id, default: 0] += 1; return $0[id]! }
                    try body(id)
                    return attempt
                }
            })
            results.withLock { $0[id] = result }
        }
        let threads = DispatchGroup()
        let first = Result(catching: { () throws(StoreError) in
            try commit.run { backend throws(StoreError) in
                backend.record("unit a")
                for (index, id) in queued.enumerated() {
                    threads.enter()
                    Thread { unit(id); threads.leave() }.start()
                    waitUntil { commit.queuedUnits == index + 1 }
                }
                try body("a")
                return 1
            }
        })
        results.withLock { $0["a"] = first }
        threads.wait()
        return results.withLock { $0 }
    }

    private func waitUntil(_ condition: () -> Bool) {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
    }
}

/// Records the transaction control `GroupCommit` asks for; `.busy` from a unit may run again.
/// A commit failing with `.busy` is a collision only until the group is rolled back, as
/// PostgreSQL's SQLSTATE is forgotten once the connection runs its `ROLLBACK`.
final class RecordingTransactions: GroupTransactions, Sendable {
    private let log = Mutex<[String]>([])
    private let commitFailure: StoreError?
    private let failingCommits: Mutex<Int>
    private let commitCollided = Mutex(false)
    let concurrentGroups: Int

    init(commitFailure: StoreError? = nil, failingCommits: Int = .max, concurrentGroups: Int = 1) {
        self.commitFailure = commitFailure
        self.failingCommits = Mutex(failingCommits)
        self.concurrentGroups = concurrentGroups
    }

    var events: [String] { log.withLock { $0 } }

    func record(_ event: String) { log.withLock { $0.append(event) } }

    func beginGroup() throws(StoreError) -> RecordingTransactions {
        record("begin")
        return self
    }

    func beginUnit(on transaction: RecordingTransactions, previousKept: Bool) throws(StoreError) {
        record(previousKept ? "next(kept)" : "next(rolled back)")
    }

    func rollBackUnit(on transaction: RecordingTransactions) throws(StoreError) { record("rollback unit") }

    func commitGroup(_ transaction: RecordingTransactions) throws(StoreError) {
        record("commit")
        guard let commitFailure, failingCommits.withLock({ $0 -= 1; return $0 >= 0 }) else { return }
        commitCollided.withLock { $0 = true }
        throw commitFailure
    }

    func abandonGroup(_ transaction: RecordingTransactions) {
        record("abandon")
        commitCollided.withLock { $0 = false }
    }

    func runsAgain(_ error: StoreError, on transaction: RecordingTransactions) -> Bool {
        error == .busy && (commitFailure != .busy || commitCollided.withLock { $0 })
    }

    func beforeRunningAgain(attempt: Int) throws(StoreError) {
        if attempt >= 3 { throw .busy }
    }
}

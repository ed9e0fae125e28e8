import Lifecycle

/// Group commit (decision 109): write units of work queued for a backend's writer share one
/// transaction and one durable commit, each in a savepoint of its own. Callers take turns at the
/// writer in the order they came (tickets); each runs its own body on its own thread, in its
/// savepoint. A unit that fails is rolled back to its savepoint and its caller gets its error at
/// once; the others' work is kept. When no one else waits, or the group reached its limits
/// (`GroupCommitLimits`), the unit's caller commits the group; a caller whose unit succeeded
/// returns only once its group's commit is durable, and gets the commit's error when it failed.
///
/// So nothing is acknowledged before it is durable, one fsync serves every writer that queued
/// during the previous one, and a writer alone commits at once, as without groups.
public final class GroupCommit<Backend: GroupTransactions>: Sendable {
    private let backend: Backend
    private let limits: GroupCommitLimits
    /// Each caller waits for its turn on the channel of its ticket and for its group's commit on
    /// `outcomeChannel`: passing the turn wakes the caller whose turn it is, not every thread
    /// queued at the writer (a store pool's worth of futile wake-ups per unit).
    private let turns = Condition(Turns(), channels: GroupCommit.turnChannels + 1)
    private static var turnChannels: Int { 64 }
    private static var outcomeChannel: Int { turnChannels }
    private static func turnChannel(_ ticket: UInt64) -> Int { Int(ticket % UInt64(turnChannels)) }

    public init(_ backend: Backend, limits: GroupCommitLimits) {
        self.backend = backend
        self.limits = limits
    }

    /// Runs `body` as one unit of work in a group, and returns once its group committed. A unit
    /// the backend says may succeed in a new transaction (`runsAgain`) ends its group and runs
    /// again in a later one, after `beforeRunningAgain`; so does every unit of a group whose
    /// commit failed that way (the database rolled all of it back).
    public func run<R>(_ body: (Backend.Transaction) throws(StoreError) -> R) throws(StoreError) -> R {
        var attempts = 0
        while true {
            attempts += 1
            switch attempt(body) {
            case .done(let value): return value
            case .failed(let error): throw error
            case .runAgain: try backend.beforeRunningAgain(attempt: attempts)
            }
        }
    }

    /// Callers waiting for their turn at the writer (not counting the one whose turn it is).
    public var queuedUnits: Int { turns.withLock { t in Int(max(t.nextTicket, t.serving + 1) - t.serving - 1) } }

    /// Whose turn it is at the writer, and the group open on it.
    private struct Turns: Sendable {
        var nextTicket: UInt64 = 0
        var serving: UInt64 = 0
        var open: Group?
    }

    /// A group's transaction and how the group ended. `outcome` is read and written under the
    /// lock of `turns`; the other fields only by the caller whose turn it is (the turn passes
    /// under that lock too).
    private final class Group: @unchecked Sendable {
        let transaction: Backend.Transaction
        let opened = ContinuousClock.now
        var units = 1
        var previousKept = true
        var outcome: Outcome?

        init(_ transaction: Backend.Transaction) { self.transaction = transaction }
    }

    private enum Outcome { case committed, failed(StoreError, runAgain: Bool) }

    private enum Attempt<R> { case done(R), failed(StoreError), runAgain }

    private func attempt<R>(_ body: (Backend.Transaction) throws(StoreError) -> R) -> Attempt<R> {
        let ticket = turns.withLock { t in
            defer { t.nextTicket += 1 }
            return t.nextTicket
        }
        let joined = turns.withLock(when: { $0.serving == ticket }, channel: Self.turnChannel(ticket)) { $0.open }
        // The writer is this caller's until it passes the turn, before it waits for its group.
        let (result, group) = runTurn(body, joining: joined)
        passTurn()
        guard let group, case .success(let value) = result else {
            if case .failure(let error) = result { return .failed(error) }
            return .runAgain
        }
        let outcome = turns.withLock(when: { _ in group.outcome != nil }, channel: Self.outcomeChannel) { _ in group.outcome }
        switch outcome {
        case .committed?: return .done(value)
        case .failed(_, runAgain: true)?: return .runAgain
        case .failed(let error, runAgain: false)?: return .failed(error)
        case nil: return .failed(.failed)
        }
    }

    /// This caller's turn at the writer: its unit in `joined`, or in a group it opens. Returns
    /// the unit's result (nil: run it again) and, when the unit was kept, its group to wait for.
    private func runTurn<R>(_ body: (Backend.Transaction) throws(StoreError) -> R,
                            joining joined: Group?) -> (Result<R, StoreError>?, Group?) {
        let group: Group
        if let joined {
            do throws(StoreError) {
                try backend.beginUnit(on: joined.transaction, previousKept: joined.previousKept)
            } catch {
                end(joined, .failed(error, runAgain: false), abandon: true)
                return (.failure(error), nil)
            }
            joined.units += 1
            group = joined
        } else {
            do throws(StoreError) {
                group = Group(try backend.beginGroup())
            } catch {
                return (.failure(error), nil)
            }
            turns.withLock { $0.open = group }
        }

        let result: Result<R, StoreError>
        do throws(StoreError) {
            let value = try body(group.transaction)
            try backend.checkUnit(on: group.transaction)
            result = .success(value)
        } catch {
            result = .failure(error)
        }

        guard case .failure(let error) = result else {
            group.previousKept = true
            if !mayHandOver(group) { commit(group) }
            return (result, group)
        }
        let runAgain = backend.runsAgain(error, on: group.transaction)
        do throws(StoreError) {
            try backend.rollBackUnit(on: group.transaction)
        } catch {
            // The transaction itself is lost: every unit kept in it is lost with it.
            end(group, .failed(error, runAgain: false), abandon: true)
            return (runAgain ? nil : .failure(error), nil)
        }
        group.previousKept = false
        // A unit that must run again needs a new snapshot: its group ends now.
        if runAgain || !mayHandOver(group) { commit(group) }
        return (runAgain ? nil : .failure(error), nil)
    }

    /// True when the next caller in line may add its unit to `group` instead of this one
    /// committing it: someone waits, and the group is within its limits.
    private func mayHandOver(_ group: Group) -> Bool {
        let othersWait = turns.withLock { $0.nextTicket - $0.serving > 1 }
        return othersWait && group.units < limits.maxUnits && ContinuousClock.now - group.opened < limits.maxOpen
    }

    private func commit(_ group: Group) {
        do throws(StoreError) {
            try backend.commitGroup(group.transaction)
            end(group, .committed, abandon: false)
        } catch {
            end(group, .failed(error, runAgain: backend.runsAgain(error, on: group.transaction)), abandon: true)
        }
    }

    /// Ends `group` (rolling it back first when `abandon`) and wakes its callers.
    private func end(_ group: Group, _ outcome: Outcome, abandon: Bool) {
        if abandon { backend.abandonGroup(group.transaction) }
        turns.withLock { t in
            group.outcome = outcome
            if t.open === group { t.open = nil }
        }
        turns.broadcast(channel: Self.outcomeChannel)
    }

    private func passTurn() {
        let next = turns.withLock { t in
            t.serving += 1
            return t.serving
        }
        turns.broadcast(channel: Self.turnChannel(next))
    }
}

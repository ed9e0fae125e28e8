import Foundation
import GatewayStore

/// Group commit on PostgreSQL (decision 109): a group is one `REPEATABLE READ` transaction on a
/// pooled connection, each unit in the savepoint `unit`. Transaction control and the statements
/// whose outcome nobody reads wait (`runLater`) and go with the next statement that needs an
/// answer, in one round trip (decision 131); a unit ends by sending what still waits, and the
/// group's change-log rows and `COMMIT` go together. A unit that meets a serialization failure, a deadlock or
/// a unique key another writer committed (`PostgresFailure.runAgainStates`) is rolled back to its
/// savepoint (the advisory locks it took are released with it), its group commits what the
/// others did, and it runs again in a later group, on a fresh snapshot.
///
/// Groups run `concurrentGroups` at once, each on a pooled connection of its own (decision 127):
/// a unit is a chain of dependent round trips, so one group at a time left the database and the
/// cores idle between them. The changes the units record are written when their group commits
/// (`recordChangesAndCommit`), so the change log's lock, which orders commits, is held only for
/// that statement and the `COMMIT`; the groups collide where any two processes' writers do.
struct PostgresGroupTransactions: GroupTransactions {
    let pool: PostgresPool
    let settings: PostgresSettings
    let log: StoreLog
    let concurrentGroups: Int
    /// Where the sequences of the changes a group wrote go once it committed.
    let ownChanges: PostgresOwnChanges
    /// The schema's notification channel (`PostgresChangeLog.channel(on:)`).
    let channel: String

    func beginGroup() throws(StoreError) -> PostgresGroup {
        let group = PostgresGroup(connection: try pool.borrow())
        do throws(StoreError) {
            // Sent with the first unit's first statement.
            try group.connection.runLater("BEGIN ISOLATION LEVEL REPEATABLE READ")
            try group.connection.runLater("SAVEPOINT unit")
        } catch {
            abandonGroup(group)
            throw error
        }
        return group
    }

    /// `ROLLBACK TO` leaves its savepoint established, so after a rolled-back unit the next one
    /// reuses it; after a kept one it is released and set again, sent with the unit's first
    /// statement.
    func beginUnit(on group: PostgresGroup, previousKept: Bool) throws(StoreError) {
        guard previousKept else { return }
        group.keepUnit()
        try group.connection.runLater("RELEASE SAVEPOINT unit")
        try group.connection.runLater("SAVEPOINT unit")
    }

    /// The unit's statements queued by `runLater` are sent now: a unit is kept only once all of
    /// them ran. A body that caught a failed statement and returned leaves the transaction
    /// failed: its unit is undone, so the group's `COMMIT` (which would roll everything back) is
    /// not reached so.
    func checkUnit(on group: PostgresGroup) throws(StoreError) {
        try group.connection.flush()
        guard !group.connection.isInFailedTransaction else {
            log.failure("a write unit of work returned with its transaction failed; rolled back")
            throw .failed
        }
    }

    /// What the unit queued is sent first, whatever becomes of it: the savepoint it may set is
    /// the one to roll back to.
    func rollBackUnit(on group: PostgresGroup) throws(StoreError) {
        group.dropUnit()
        try? group.connection.flush()
        try group.connection.execute("ROLLBACK TO SAVEPOINT unit")
    }

    /// The group's changes, then `COMMIT`; their sequences are this process's once it returned.
    func commitGroup(_ group: PostgresGroup) throws(StoreError) {
        let sequences = try group.connection.recordChangesAndCommit(group.changes, channel: channel)
        pool.giveBack(borrowed: group.connection)
        ownChanges.note(sequences)
    }

    func abandonGroup(_ group: PostgresGroup) {
        if group.connection.isConnected {
            try? group.connection.flush()
            try? group.connection.execute("ROLLBACK")
        }
        pool.giveBack(borrowed: group.connection)
    }

    func runsAgain(_ error: StoreError, on group: PostgresGroup) -> Bool {
        error == .busy && (group.connection.lastSQLState.map(PostgresFailure.runAgainStates.contains) ?? false)
    }

    func beforeRunningAgain(attempt: Int) throws(StoreError) {
        guard attempt < settings.writeAttempts else {
            log.failure("a write collided with others \(attempt) times (serialization failure, deadlock or unique key); giving up")
            throw .busy
        }
        // A short random pause so the transactions that collided do not collide again.
        Thread.sleep(forTimeInterval: Double.random(in: 0.001...0.002) * Double(min(attempt, 10)))
    }
}

import Foundation
import GatewayStore

/// Group commit on PostgreSQL (decision 109): a group is one `REPEATABLE READ` transaction on a
/// pooled connection, each unit in the savepoint `unit`; the transaction control of a unit is
/// sent with the statement before or after it, so a unit costs one round trip more than its own
/// statements and the group one `COMMIT`. A unit that meets a serialization failure, a deadlock or
/// a unique key another writer committed (`PostgresFailure.runAgainStates`) is rolled back to its
/// savepoint (the advisory locks it took are released with it), its group commits what the
/// others did, and it runs again in a later group, on a fresh snapshot.
struct PostgresGroupTransactions: GroupTransactions {
    let pool: PostgresPool
    let settings: PostgresSettings
    let log: StoreLog

    func beginGroup() throws(StoreError) -> PostgresConnection {
        let connection = try pool.borrow()
        do throws(StoreError) {
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ; SAVEPOINT unit")
        } catch {
            abandonGroup(connection)
            throw error
        }
        return connection
    }

    /// `ROLLBACK TO` leaves its savepoint established, so after a rolled-back unit the next one
    /// reuses it; after a kept one it is released and set again, in one round trip.
    func beginUnit(on transaction: PostgresConnection, previousKept: Bool) throws(StoreError) {
        guard previousKept else { return }
        try transaction.execute("RELEASE SAVEPOINT unit; SAVEPOINT unit")
    }

    /// A body that caught a failed statement and returned leaves the transaction failed: its unit
    /// is undone, so the group's `COMMIT` (which would roll everything back) is not reached so.
    func checkUnit(on transaction: PostgresConnection) throws(StoreError) {
        guard !transaction.isInFailedTransaction else {
            log.failure("a write unit of work returned with its transaction failed; rolled back")
            throw .failed
        }
    }

    func rollBackUnit(on transaction: PostgresConnection) throws(StoreError) {
        try transaction.execute("ROLLBACK TO SAVEPOINT unit")
    }

    func commitGroup(_ transaction: PostgresConnection) throws(StoreError) {
        try transaction.execute("COMMIT")
        pool.giveBack(borrowed: transaction)
    }

    func abandonGroup(_ transaction: PostgresConnection) {
        if transaction.isConnected { try? transaction.execute("ROLLBACK") }
        pool.giveBack(borrowed: transaction)
    }

    func runsAgain(_ error: StoreError, on transaction: PostgresConnection) -> Bool {
        error == .busy && (transaction.lastSQLState.map(PostgresFailure.runAgainStates.contains) ?? false)
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

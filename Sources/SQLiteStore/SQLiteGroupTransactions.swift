import GatewayStore

/// Group commit on SQLite's one writer connection (decision 109): the group is one
/// `BEGIN IMMEDIATE … COMMIT` (with `synchronous = FULL`, one fsync of the WAL for the group), each
/// unit in the savepoint `unit`. Each of these statements runs once a unit or a group, so each
/// is prepared once (`runCached`).
struct SQLiteGroupTransactions: GroupTransactions {
    let writer: SQLiteConnection

    func beginGroup() throws(StoreError) -> SQLiteConnection {
        try writer.runCached("BEGIN IMMEDIATE")
        do throws(StoreError) {
            try writer.runCached("SAVEPOINT unit")
        } catch {
            try? writer.execute("ROLLBACK")
            throw error
        }
        return writer
    }

    /// `ROLLBACK TO` leaves its savepoint established, so after a rolled-back unit the next one
    /// reuses it; after a kept one it is released (its changes become the group's) and set again.
    func beginUnit(on transaction: SQLiteConnection, previousKept: Bool) throws(StoreError) {
        guard previousKept else { return }
        try transaction.runCached("RELEASE unit")
        try transaction.runCached("SAVEPOINT unit")
    }

    /// Fails (no such savepoint) when SQLite rolled the whole transaction back itself (a full
    /// disk, an I/O error): the group is lost then.
    func rollBackUnit(on transaction: SQLiteConnection) throws(StoreError) {
        try transaction.runCached("ROLLBACK TO unit")
    }

    func commitGroup(_ transaction: SQLiteConnection) throws(StoreError) {
        try transaction.runCached("COMMIT")
    }

    func abandonGroup(_ transaction: SQLiteConnection) {
        if transaction.isInTransaction { try? transaction.execute("ROLLBACK") }
    }
}

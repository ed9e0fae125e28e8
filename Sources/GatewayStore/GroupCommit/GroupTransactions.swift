/// What a backend does for group commit (`GroupCommit`): the transaction control of one
/// connection whose transaction several write units of work share, each in a savepoint of its
/// own, so one unit's failure undoes only its own changes.
public protocol GroupTransactions: Sendable {
    /// The open transaction (its connection) the units of one group run on.
    associatedtype Transaction: Sendable

    /// How many groups may be open at once, each on a transaction of its own: one for a backend
    /// with one writer (SQLite); more where transactions commit independently and the database
    /// settles their collisions (PostgreSQL, decision 127).
    var concurrentGroups: Int { get }

    /// Opens a group's transaction and the first unit's savepoint.
    func beginGroup() throws(StoreError) -> Transaction
    /// Opens the next unit's savepoint: `previousKept` when the unit before it succeeded (its
    /// savepoint is released first), false when it was rolled back to its savepoint (which is
    /// still established, ready for reuse).
    func beginUnit(on transaction: Transaction, previousKept: Bool) throws(StoreError)
    /// Asked after a unit's body returned: throws when the database refused the unit all the
    /// same (its transaction is in a failed state), so it is rolled back like one that threw.
    func checkUnit(on transaction: Transaction) throws(StoreError)
    /// Undoes what the current unit did (`ROLLBACK TO` its savepoint). Throws when the whole
    /// transaction is lost (the database rolled it back, the connection dropped).
    func rollBackUnit(on transaction: Transaction) throws(StoreError)
    /// Commits the group (durably, before it returns) and lets go of the connection.
    func commitGroup(_ transaction: Transaction) throws(StoreError)
    /// Rolls the group back and lets go of the connection.
    func abandonGroup(_ transaction: Transaction)
    /// True when a unit that failed with `error` may succeed in a new transaction (a
    /// serialization failure or deadlock); asked before its savepoint is rolled back to.
    func runsAgain(_ error: StoreError, on transaction: Transaction) -> Bool
    /// Called before a unit runs again for the `attempt`-th time (after its group ended): waits,
    /// or throws to give up.
    func beforeRunningAgain(attempt: Int) throws(StoreError)
}

extension GroupTransactions {
    public var concurrentGroups: Int { 1 }
    public func checkUnit(on transaction: Transaction) throws(StoreError) {}
    public func runsAgain(_ error: StoreError, on transaction: Transaction) -> Bool { false }
    public func beforeRunningAgain(attempt: Int) throws(StoreError) { throw .busy }
}

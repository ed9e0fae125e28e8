import GatewayStore

/// One group's transaction on PostgreSQL (`PostgresGroupTransactions`): its connection, and the
/// changes its units recorded for the change log, written when the group commits (decision 127).
/// A unit's changes are dropped with its savepoint when it is rolled back to. Used by one
/// combiner at a time, like its connection.
final class PostgresGroup: @unchecked Sendable {
    let connection: PostgresConnection
    private(set) var changes: [StoreChange] = []
    /// Where the current unit's changes begin in `changes`.
    private var unitStart = 0

    init(connection: PostgresConnection) { self.connection = connection }

    func record(_ change: StoreChange) { changes.append(change) }

    /// The unit before the next one was kept: its changes stay.
    func keepUnit() { unitStart = changes.count }

    /// The current unit was rolled back to its savepoint: its changes go with it.
    func dropUnit() { changes.removeSubrange(unitStart...) }
}

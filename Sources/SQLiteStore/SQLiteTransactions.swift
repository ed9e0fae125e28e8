import GatewayStore

/// Row access on one connection inside an open transaction. The read half is shared by both
/// transaction kinds (a write unit of work reads its own changes).
protocol SQLiteReading: ReadTransaction {
    var connection: SQLiteConnection { get }
}

/// A read unit of work: a `BEGIN DEFERRED` transaction on a pooled reader connection.
struct SQLiteReadTransaction: SQLiteReading {
    let connection: SQLiteConnection
}

/// A write unit of work: the `BEGIN IMMEDIATE` transaction of the writer connection.
struct SQLiteWriteTransaction: SQLiteReading, WriteTransaction {
    let connection: SQLiteConnection
}

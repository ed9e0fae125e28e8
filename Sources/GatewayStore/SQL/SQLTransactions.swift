/// Row access on one connection inside an open transaction, written once for every backend
/// (the `…Rows` files of this module). The read half is shared by both transaction kinds (a
/// write unit of work reads its own changes).
public protocol SQLReading: ReadTransaction {
    associatedtype Connection: SQLConnection
    var connection: Connection { get }
}

/// A read unit of work on `connection` (the backend opened its snapshot).
public struct SQLReadTransaction<Connection: SQLConnection>: SQLReading {
    public let connection: Connection

    public init(connection: Connection) { self.connection = connection }
}

/// A write unit of work on `connection` (the backend opened its transaction), with the backend's
/// `hooks` for what several processes need (change log, locks).
public struct SQLWriteTransaction<Connection: SQLConnection, Hooks: SQLWriteHooks>: SQLReading, WriteTransaction {
    public let connection: Connection
    public let hooks: Hooks
    /// What is derived from the facts of accounts marked due (E36, E37), by `deriveDueReportRows`.
    public let upkeep: (any FactsUpkeeping)?

    public init(connection: Connection, hooks: Hooks, upkeep: (any FactsUpkeeping)? = nil) {
        self.connection = connection
        self.hooks = hooks
        self.upkeep = upkeep
    }
}

extension SQLWriteTransaction where Hooks == NoWriteHooks {
    public init(connection: Connection, upkeep: (any FactsUpkeeping)? = nil) {
        self.init(connection: connection, hooks: NoWriteHooks(), upkeep: upkeep)
    }
}

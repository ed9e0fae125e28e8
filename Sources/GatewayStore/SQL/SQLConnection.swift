/// One database connection inside an open transaction, as the row access written once
/// (`SQLReading`) needs it: statements as `SQL` values, rendered for the connection's dialect,
/// rows read through `StoredRow`. Each backend's connection implements it over its C library.
public protocol SQLConnection {
    associatedtype Row: StoredRow

    var dialect: SQLDialect { get }

    /// Runs a query and maps every row.
    func query<T>(_ sql: SQL, _ map: (Row) throws(StoreError) -> T) throws(StoreError) -> [T]
    /// Runs a query and maps its first row, nil when it returned none.
    func queryFirst<T>(_ sql: SQL, _ map: (Row) throws(StoreError) -> T) throws(StoreError) -> T?
    /// Runs a statement; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: SQL) throws(StoreError) -> Int
    /// Runs a statement whose outcome nobody reads (a write, a lock). A backend may send it with
    /// the next statement that needs an answer, in order and in one round trip; its failure then
    /// fails that statement, or the end of the unit of work, so the unit fails as it would have.
    func runLater(_ sql: SQL) throws(StoreError)
}

extension SQLConnection {
    /// Runs it now: a backend without round trips to save has nothing to gain by waiting.
    public func runLater(_ sql: SQL) throws(StoreError) { try run(sql) }

    /// True when the query returns a row.
    public func exists(_ sql: SQL) throws(StoreError) -> Bool { try queryFirst(sql) { _ in true } ?? false }
}

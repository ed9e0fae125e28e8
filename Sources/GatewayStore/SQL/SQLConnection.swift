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
}

extension SQLConnection {
    /// True when the query returns a row.
    public func exists(_ sql: SQL) throws(StoreError) -> Bool { try queryFirst(sql) { _ in true } ?? false }
}

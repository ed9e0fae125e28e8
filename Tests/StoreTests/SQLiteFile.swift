import CSQLite
import Testing

/// A second, raw connection to a store's file: to look at rows no interface shows, or to hold
/// the database lock as another process would.
final class SQLiteFile {
    private var handle: OpaquePointer?

    init(_ path: String) throws {
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
    }

    deinit { sqlite3_close(handle) }

    /// Runs statements; true when SQLite accepted them.
    @discardableResult
    func execute(_ sql: String) -> Bool { sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK }

    /// The first column of the first row of `sql`.
    func integer(_ sql: String) throws -> Int64 {
        var statement: OpaquePointer?
        try #require(sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        try #require(sqlite3_step(statement) == SQLITE_ROW)
        return sqlite3_column_int64(statement, 0)
    }
}

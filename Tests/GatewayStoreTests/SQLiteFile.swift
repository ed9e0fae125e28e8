import CSQLite
import Foundation
@testable import SQLiteStore
import TestSupport
import Testing

/// A second, raw connection to a store's file: to look at rows no interface shows, or to hold
/// the database lock as another process would.
final class SQLiteFile {
    private var handle: OpaquePointer?

    init(_ path: String) throws {
        _ = SQLiteLibrary.configured  // as the store configures the library before its first open
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

extension TemporaryDatabase {
    /// Writes the file as the first released schema left it, holding `rows` (SQL statements): what
    /// an upgrade through every later migration starts from.
    func writeVersionOne(rows: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let file = try SQLiteFile(path)
        try #require(file.execute(SQLiteSchema.migrations[0].schema + "PRAGMA user_version = 1;\n" + rows))
    }
}

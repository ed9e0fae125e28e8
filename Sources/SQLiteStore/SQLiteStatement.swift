import CSQLite
import GatewayStore
import Wire

/// A compiled statement owned by one connection's cache.
final class SQLiteStatement {
    let raw: OpaquePointer
    unowned let connection: SQLiteConnection

    init(_ raw: OpaquePointer, connection: SQLiteConnection) { self.raw = raw; self.connection = connection }

    func bind(_ values: [SQLValue]) throws(StoreError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .integer(let v): rc = sqlite3_bind_int64(raw, index, v)
            case .text(let s): rc = sqlite3_bind_text(raw, index, s, -1, csqlite_transient())
            case .boolean(let b): rc = sqlite3_bind_int64(raw, index, b ? 1 : 0)  // SQLite has no boolean type
            case .bytes(let b):
                // A null pointer would bind NULL: an empty value is a zero-length blob.
                rc = b.isEmpty ? sqlite3_bind_zeroblob(raw, index, 0)
                    : b.withUnsafeBytes { sqlite3_bind_blob(raw, index, $0.baseAddress, Int32($0.count), csqlite_transient()) }
            case .null: rc = sqlite3_bind_null(raw, index)
            }
            guard rc == SQLITE_OK else {
                throw connection.failure(rc, "cannot bind parameter \(index): \(connection.lastErrorMessage)")
            }
        }
    }

    /// True when a row is available; false when done. A constraint violation is `.failed` like
    /// any other: the operations insert what may exist already with `ON CONFLICT DO NOTHING`, so
    /// one reaching here breaks a rule they keep (its detail, tables and columns, is logged).
    func step() throws(StoreError) -> Bool {
        switch sqlite3_step(raw) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc: throw connection.failure(rc, connection.lastErrorMessage)
        }
    }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    func finalize() { sqlite3_finalize(raw) }
}

/// The current row of a stepping statement, read by column index (the accessors `RecordRows`
/// maps records with).
struct SQLiteRow: StoredRow {
    let statement: SQLiteStatement

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement.raw, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement.raw, column) }
    func bool(_ column: Int32) -> Bool { int64(column) != 0 }
    /// The blob first, then its length (sqlite3_column_bytes, "Result Values From A Query").
    func bytes(_ column: Int32) -> [UInt8] {
        guard let p = sqlite3_column_blob(statement.raw, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(statement.raw, column))))
    }
    func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(statement.raw, column) else { return "" }
        return String(cString: p)
    }

    /// SQLite's own buffer: the text first, then its length (sqlite3_column_bytes, "Result Values
    /// From A Query").
    func appendUTF8(_ column: Int32, to bytes: inout [UInt8]) {
        guard let p = sqlite3_column_text(statement.raw, column) else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(statement.raw, column))))
    }

    /// A value this gateway cannot have written: logged, and the unit of work fails.
    func corrupt(_ detail: String) -> StoreError { statement.connection.corrupt(detail) }
}

import CSQLite
import GatewayStore

/// One SQLite connection with its prepared-statement cache. Not thread-safe by itself: the store
/// hands each connection to one thread at a time (a lock for the writer, a pool for readers),
/// which is why it is opened in multi-thread mode (`SQLITE_OPEN_NOMUTEX`).
final class SQLiteConnection: SQLConnection, @unchecked Sendable {
    private let db: OpaquePointer
    /// Statements are compiled once per connection and reset after each use.
    private var statements: [String: SQLiteStatement] = [:]
    let log: StoreLog

    init(path: String, settings: SQLiteSettings, log: StoreLog) throws(StoreError) {
        _ = SQLiteLibrary.configured
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw Self.failure(rc, "cannot open database \(path): \(message)", log)
        }
        db = handle
        self.log = log
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, settings.busyTimeoutMilliseconds)
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = \(settings.synchronous)")
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        for statement in statements.values { statement.finalize() }
        sqlite3_close_v2(db)
    }

    /// Runs SQL text without parameters (schema, pragmas, transaction control).
    func execute(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(error)
            throw failure(rc, "\(sql.prefix(60)): \(message)")
        }
    }

    /// The cached statement for `sql`, bound to `values`, ready to step. Reset when `body` returns.
    func withStatement<R>(_ sql: String, _ values: [SQLValue],
                          _ body: (SQLiteStatement) throws(StoreError) -> R) throws(StoreError) -> R {
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
        } else {
            var raw: OpaquePointer?
            guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil) == SQLITE_OK,
                  let raw else { throw failure(sqlite3_errcode(db), "cannot prepare \(sql.prefix(60)): \(lastErrorMessage)") }
            statement = SQLiteStatement(raw, connection: self)
            statements[sql] = statement
        }
        defer { statement.reset() }
        try statement.bind(values)
        return try body(statement)
    }

    var dialect: SQLDialect { .sqlite }

    /// Runs a statement; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: SQL) throws(StoreError) -> Int {
        try withStatement(sql.text(for: .sqlite), sql.values) { statement throws(StoreError) in
            while try statement.step() {}
            return Int(sqlite3_changes(db))
        }
    }

    func query<T>(_ sql: SQL, _ map: (SQLiteRow) throws(StoreError) -> T) throws(StoreError) -> [T] {
        try withStatement(sql.text(for: .sqlite), sql.values) { statement throws(StoreError) in
            var rows: [T] = []
            while try statement.step() { rows.append(try map(SQLiteRow(statement: statement))) }
            return rows
        }
    }

    func queryFirst<T>(_ sql: SQL, _ map: (SQLiteRow) throws(StoreError) -> T) throws(StoreError) -> T? {
        try withStatement(sql.text(for: .sqlite), sql.values) { statement throws(StoreError) in
            try statement.step() ? try map(SQLiteRow(statement: statement)) : nil
        }
    }

    /// A write transaction: `BEGIN IMMEDIATE` takes the write lock up front so a reader-turned-writer
    /// can never deadlock; any error rolls everything back, so a change is all or nothing.
    func writeTransaction<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A read transaction so that multi-statement reads see one consistent snapshot. `BEGIN` and
    /// `COMMIT` are cached statements like any other: `sqlite3_exec` would parse them on every read.
    func readTransaction<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        try runCached("BEGIN DEFERRED")
        defer { try? runCached("COMMIT") }
        return try body()
    }

    /// Runs parameterless statement text through the statement cache: statements run again and
    /// again (transaction control, savepoints), which `execute` would parse every time.
    func runCached(_ sql: String) throws(StoreError) {
        try withStatement(sql, []) { statement throws(StoreError) in while try statement.step() {} }
    }

    /// False once the connection is back in autocommit mode: no transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(db) == 0 }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(db)) }

    /// Logs what SQLite said and returns the error a caller may see: busy or locked (another
    /// connection kept the lock past the busy timeout) may be retried, anything else may not.
    func failure(_ rc: Int32, _ detail: String) -> StoreError { Self.failure(rc, detail, log) }

    /// A row SQLite returned that this gateway cannot have written (a corrupt or foreign file).
    func corrupt(_ detail: String) -> StoreError {
        log.failure("unreadable row: \(detail)")
        return .failed
    }

    private static func failure(_ rc: Int32, _ detail: String, _ log: StoreLog) -> StoreError {
        log.failure("\(detail) (SQLite code \(rc))")
        switch rc & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        default: return .failed
        }
    }
}

import CLibPQ
import Foundation
import GatewayStore

/// One libpq connection with its prepared statements (`PQprepare` once per SQL text, then
/// `PQexecPrepared`). Not thread-safe by itself: the pool hands each connection to one thread at a
/// time.
final class PostgresConnection: SQLConnection, @unchecked Sendable {
    private let conn: OpaquePointer
    /// Statement names by SQL text, prepared on first use on this connection.
    private var prepared: [String: String] = [:]
    /// Statements `runLater` queued: sent with the next one that needs an answer (one round trip,
    /// `PostgresPipeline`), or by `flush()`.
    private var later: [PostgresExecution] = []
    /// How many statements wait at most: each one's answer is a few bytes, so neither side's
    /// socket buffer fills while the other waits.
    static let laterLimit = 32
    let log: StoreLog
    /// The SQLSTATE of the last failure, for the store's retry decision (40001, 40P01).
    private(set) var lastSQLState: String?

    /// Opens a connection to `url` (a `postgresql://` URI or a libpq connection string) and sets
    /// the session's statement timeout.
    init(url: String, settings: PostgresSettings, log: StoreLog) throws(StoreError) {
        self.log = log
        // Defaults first, the URL last: with expand_dbname its own settings win over ours.
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = [String(settings.connectTimeoutSeconds), "issue-gateway", url]
        let handle: OpaquePointer? = Self.withCStrings(keywords) { k in
            Self.withCStrings(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let handle else {
            log.failure("cannot connect to PostgreSQL: out of memory")
            throw .busy
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            log.failure("cannot connect to PostgreSQL: \(Self.trimmed(PQerrorMessage(handle)))")
            PQfinish(handle)
            throw .busy
        }
        conn = handle
        clibpq_silence_notices(conn)
        try execute("SET statement_timeout = \(max(0, settings.statementTimeoutMilliseconds))")
        // `PostgresBytes` reads BYTEA in the hex format whatever the server's default.
        try execute("SET bytea_output = 'hex'")
    }

    deinit { PQfinish(conn) }

    /// True while the connection is usable for the next unit of work: connected and outside any
    /// transaction.
    var isReusable: Bool {
        PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE
            && later.isEmpty && PostgresPipeline.isOff(conn)
    }

    var isConnected: Bool { PQstatus(conn) == CONNECTION_OK }

    /// True inside a transaction a failed statement aborted (only `ROLLBACK` or `ROLLBACK TO` will do).
    var isInFailedTransaction: Bool { PQtransactionStatus(conn) == PQTRANS_INERROR }

    /// Runs SQL text without parameters (schema, transaction control); several statements may be
    /// given at once. What `runLater` queued is sent first.
    func execute(_ sql: String) throws(StoreError) {
        try flush()
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        try check(result, sql)
    }

    /// Runs SQL text that cannot be prepared (`FETCH` from a cursor) and maps every row.
    func queryUnprepared<T>(_ sql: String, _ map: (PGRow) throws(StoreError) -> T) throws(StoreError) -> [T] {
        try flush()
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        try check(result, sql)
        guard let result else { throw .failed }
        return try rows(of: result, map)
    }

    var dialect: SQLDialect { .postgres }

    /// Runs a prepared statement for `sql`, after what `runLater` queued and in the same round
    /// trip; `body` reads the result before it is cleared. Values go in libpq's text format; the
    /// server infers each parameter's type from where it is used.
    func withResult<R>(_ sql: SQL, _ body: (OpaquePointer) throws(StoreError) -> R) throws(StoreError) -> R {
        let execution = try prepare(sql)
        let result = try later.isEmpty
            ? PostgresPipeline.alone(execution, on: conn) : exchangeLater(then: [execution])[0]
        defer { PQclear(result) }
        try check(result, execution.text)
        guard let result else { throw .failed }
        return try body(result)
    }

    /// Runs a query, then `next` (a statement whose outcome is only its success), in one round
    /// trip after what `runLater` queued; maps the query's rows once both succeeded.
    func query<T>(_ sql: SQL, then next: SQL, _ map: (PGRow) throws(StoreError) -> T) throws(StoreError) -> [T] {
        let executions = [try prepare(sql), try prepare(next)]
        let results = try exchangeLater(then: executions)
        defer { for result in results { PQclear(result) } }
        for (execution, result) in zip(executions, results) { try check(result, execution.text) }
        guard let result = results[0] else { throw .failed }
        return try rows(of: result, map)
    }

    /// Queues the statement (prepared now on its first use on this connection); see
    /// `SQLConnection.runLater`.
    func runLater(_ sql: SQL) throws(StoreError) {
        later.append(try prepare(sql))
        if later.count >= Self.laterLimit { try flush() }
    }

    /// Sends what `runLater` queued, and throws the first failure among it.
    func flush() throws(StoreError) {
        guard !later.isEmpty else { return }
        _ = try exchangeLater(then: [])
    }

    /// Sends the queued statements, then `lasts`, in one pipeline. Throws the first queued one's
    /// failure; returns the results of `lasts`, for the caller to check and clear.
    private func exchangeLater(then lasts: [PostgresExecution]) throws(StoreError) -> [OpaquePointer?] {
        let queued = later
        later.removeAll(keepingCapacity: true)
        let results = PostgresPipeline.exchange(queued + lasts, on: conn)
        let lastResults = Array(results[queued.count...])
        var failure: StoreError?
        for (execution, result) in zip(queued, results) where failure == nil {
            do throws(StoreError) { try check(result, execution.text) } catch { failure = error }
        }
        for result in results[..<queued.count] { PQclear(result) }
        if let failure {
            for result in lastResults { PQclear(result) }
            throw failure
        }
        return lastResults
    }

    private func prepare(_ sql: SQL) throws(StoreError) -> PostgresExecution {
        let text = sql.text(for: .postgres)
        let name = try statementName(text, parameters: sql.values.count)
        return PostgresExecution(name: name, values: sql.values.map(Self.textFormat), text: text)
    }

    /// A value in PostgreSQL's input syntax for its type, nil for NULL.
    private static func textFormat(_ value: SQLValue) -> String? {
        switch value {
        case .integer(let v): return String(v)
        case .text(let s): return s
        case .boolean(let b): return b ? "true" : "false"
        case .bytes(let b): return PostgresBytes.hexInput(b)
        case .null: return nil
        }
    }

    /// Runs a statement; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: SQL) throws(StoreError) -> Int {
        try withResult(sql) { result in Int(String(cString: PQcmdTuples(result))) ?? 0 }
    }

    func query<T>(_ sql: SQL, _ map: (PGRow) throws(StoreError) -> T) throws(StoreError) -> [T] {
        try withResult(sql) { result throws(StoreError) in try rows(of: result, map) }
    }

    /// Every row of `result`, mapped.
    private func rows<T>(of result: OpaquePointer, _ map: (PGRow) throws(StoreError) -> T) throws(StoreError) -> [T] {
        var rows: [T] = []
        let count = PQntuples(result)
        rows.reserveCapacity(Int(count))
        for index in 0..<count { rows.append(try map(PGRow(result: result, row: index, connection: self))) }
        return rows
    }

    func queryFirst<T>(_ sql: SQL, _ map: (PGRow) throws(StoreError) -> T) throws(StoreError) -> T? {
        try withResult(sql) { result throws(StoreError) in
            PQntuples(result) > 0 ? try map(PGRow(result: result, row: 0, connection: self)) : nil
        }
    }

    /// Runs `body` between `begin` and COMMIT; any error rolls everything back.
    func transaction<R>(_ begin: String, _ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        try transaction(begin, keep: { _ in true }, body)
    }

    /// Runs `body` between `begin` and COMMIT, or ROLLBACK when it throws or `keep` refuses what
    /// it returned.
    func transaction<R>(_ begin: String, keep: (R) -> Bool, _ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        try execute(begin)
        do {
            let result = try body()
            try execute(keep(result) ? "COMMIT" : "ROLLBACK")
            return result
        } catch {
            let state = lastSQLState  // what failed, not the ROLLBACK's outcome
            if isConnected {
                try? flush()  // nothing queued is dropped unsent; the ROLLBACK undoes it
                try? execute("ROLLBACK")
            }
            lastSQLState = state
            throw error
        }
    }

    /// The socket, for waiting on notifications (`LISTEN`).
    var socket: Int32 { PQsocket(conn) }

    /// The server process serving this connection (what a notification names as its sender).
    var backendPID: Int32 { PQbackendPID(conn) }

    /// Reads what the server sent and returns the server processes that sent the pending
    /// notifications (`NOTIFY`'s `be_pid`); false when the connection is lost.
    func consumeNotifications() -> (alive: Bool, senders: [Int32]) {
        guard PQconsumeInput(conn) == 1 else { return (false, []) }
        var senders: [Int32] = []
        while let notification = PQnotifies(conn) {
            senders.append(notification.pointee.be_pid)
            PQfreemem(notification)
        }
        return (PQstatus(conn) == CONNECTION_OK, senders)
    }

    /// A row PostgreSQL returned that this gateway cannot have written.
    func corrupt(_ detail: String) -> StoreError {
        log.failure("unreadable row: \(detail)")
        return .failed
    }

    private func statementName(_ sql: String, parameters: Int) throws(StoreError) -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count + 1)"
        let result = PQprepare(conn, name, sql, Int32(parameters), nil)
        defer { PQclear(result) }
        try check(result, sql)
        prepared[sql] = name
        return name
    }

    /// Turns a failed result into the error a caller may see, logging what the server said.
    private func check(_ result: OpaquePointer?, _ sql: String) throws(StoreError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else {
            lastSQLState = nil
            return
        }
        let state = clibpq_sqlstate(result).map { String(cString: $0) }
        lastSQLState = state
        let error = PostgresFailure.classify(sqlState: state, connectionLost: PQstatus(conn) != CONNECTION_OK)
        // A serialization failure, a deadlock or a unique key met is run again by the store, which
        // logs only when it gives up.
        if let state, PostgresFailure.runAgainStates.contains(state) { throw error }
        log.failure("\(sql.prefix(60).replacingOccurrences(of: "\n", with: " ")): "
                    + "\(Self.trimmed(PQerrorMessage(conn))) (SQLSTATE \(state ?? "none"))")
        throw error
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        withOptionalCStrings(strings.map(Optional.some)) { body($0 + [nil]) }
    }

    /// C strings for `strings` (NULL for nil), valid while `body` runs.
    static func withOptionalCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { $0.map { UnsafePointer(strdup($0)!) } }
        defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
        return body(copies)
    }
}

/// Which PostgreSQL failures a client may retry (PostgreSQL Appendix A, error codes).
enum PostgresFailure {
    /// Serialization failure and deadlock: the server rolled the transaction back, so running the
    /// whole unit of work again is safe.
    static let rollbackStates: Set<String> = ["40001", "40P01"]
    /// unique_violation. Under REPEATABLE READ a row another writer committed after this
    /// transaction's snapshot is not seen by its reads, so two writers that each checked "no such
    /// row" meet at the unique index: the later one fails with 23505, not 40001. Its unit of work is
    /// run again on a fresh snapshot, where it finds the row and answers its outcome (`.exists`,
    /// `.storeProductTaken`, …). One that violates a constraint by itself fails again each time and
    /// ends as `busy` after the write attempts, logged then.
    static let uniqueViolation = "23505"
    /// What a write runs again from the start.
    static let runAgainStates = rollbackStates.union([uniqueViolation])

    static func classify(sqlState: String?, connectionLost: Bool) -> StoreError {
        if connectionLost { return .busy }
        guard let state = sqlState else { return .failed }
        if runAgainStates.contains(state) { return .busy }
        switch state {
        case "55P03",  // lock_not_available (lock_timeout)
             "57014",  // query_canceled (statement_timeout)
             "57P01", "57P02", "57P03",  // the server is shutting down or starting
             "53300":  // too_many_connections
            return .busy
        default:
            return state.hasPrefix("08") ? .busy : .failed  // connection exceptions
        }
    }
}

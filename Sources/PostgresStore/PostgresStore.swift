import Foundation
import GatewayStore

/// The PostgreSQL backend of `GatewayStore`, for several gateway processes on one database:
/// a bounded connection pool (`PostgresPool`), reads in `REPEATABLE READ READ ONLY` snapshots,
/// writes queued in this process sharing a `REPEATABLE READ` transaction and its commit, each in a
/// savepoint (`GroupCommit`, decision 109), `PostgresSettings.writeGroups` such groups at once
/// (decision 127), a unit run again (up to `PostgresSettings.writeAttempts`) when the server
/// reports a serialization failure or a deadlock; the reports' derivations take
/// turns of their own beside those groups (`writeDerived`, decision 121). The row access
/// is `GatewayStore`'s, written once; `PostgresWriteHooks` adds the change log and the locks.
public final class PostgresStore: UpkeptStore, WriteQueueing {
    let pool: PostgresPool
    private let ownChanges: PostgresOwnChanges
    /// The schema's notification channel (`PostgresChangeLog.channel(on:)`).
    let changeChannel: String
    private let settings: PostgresSettings
    private let writer: GroupCommit<PostgresGroupTransactions>
    /// The turns of the units that only derive rows (`writeDerived`, decision 121), on a connection
    /// of their own: they record no change (no change-log lock) and lock only the marks they
    /// derive, so the writer's groups need not wait out their round trips, nor they the groups'.
    private let derivations: GroupCommit<PostgresGroupTransactions>
    public let upkeep = FactsUpkeep()
    private let log: StoreLog

    /// Connects to `url` and brings the schema up to date. What PostgreSQL says when it fails goes
    /// to `log`, never into the thrown error; an unreachable server is `.busy`.
    public init(url: String, settings: PostgresSettings = PostgresSettings(), log: StoreLog = .standardError)
        throws(StoreError) {
        self.settings = settings
        self.log = log
        let pool = PostgresPool(url: url, settings: settings, log: log)
        try pool.withConnection { c throws(StoreError) in try PostgresSchema.migrate(c) }
        let channel = try pool.withConnection { c throws(StoreError) in try PostgresChangeLog.channel(on: c) }
        let ownChanges = PostgresOwnChanges()
        self.pool = pool
        self.ownChanges = ownChanges
        changeChannel = channel
        func groups(atOnce: Int) -> GroupCommit<PostgresGroupTransactions> {
            GroupCommit(PostgresGroupTransactions(pool: pool, settings: settings, log: log, concurrentGroups: atOnce,
                                                  ownChanges: ownChanges, channel: channel),
                        limits: settings.groupCommit)
        }
        writer = groups(atOnce: min(settings.writeGroups, settings.poolSize))
        // One drain thread feeds it; a report's own drain waits for the marks it holds anyway.
        derivations = groups(atOnce: 1)
    }

    /// True for the URLs this backend takes (`postgresql://` or `postgres://`, RFC 3986 scheme,
    /// case-insensitive).
    public static func handles(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// True (once) when this process committed the change-log entry `sequence`.
    func takeOwnChange(_ sequence: Int64) -> Bool { ownChanges.take(sequence) }

    /// `url` without a password (`user:secret@` becomes `user@`, a `password=` parameter is
    /// dropped), for messages.
    public static func redacted(_ url: String) -> String {
        var text = url
        if let query = text.firstIndex(of: "?") {
            let parameters = text[text.index(after: query)...].split(separator: "&")
                .filter { !$0.lowercased().hasPrefix("password=") }
            text = String(text[..<query]) + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        }
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") else { return text }
        let userInfo = text[scheme.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + String(text[at...])
    }

    /// The number of migrations the database has had.
    public func schemaVersion() throws(StoreError) -> Int {
        try pool.withConnection { c throws(StoreError) in try PostgresSchema.version(c) }
    }

    public var queuedWrites: Int { writer.queuedUnits }

    public func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try readRows { tx throws(StoreError) in try body(tx) }
    }

    public func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try writeRows { tx throws(StoreError) in try body(tx) }
    }

    public func writeDerived<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try writeRows(on: derivations) { tx throws(StoreError) in try body(tx) }
    }

    /// One statement, outside any transaction: under autocommit it sees one snapshot, and saves
    /// the round trips of BEGIN and COMMIT. Run again once on a fresh connection, as `read`.
    public func readStatement<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try retrying { c throws(StoreError) in
            try body(SQLReadTransaction(connection: c))
        } cured: { c in
            !c.isConnected
        } beforeRetry: { attempt throws(StoreError) in
            if attempt >= 2 { throw .busy }
        }
    }

    /// `read` with this backend's transaction type, for row access beyond `ReadTransaction`
    /// (the change feed reads its log on `tx.connection`).
    func readRows<R>(_ body: (SQLReadTransaction<PostgresConnection>) throws(StoreError) -> R) throws(StoreError) -> R {
        // A read is safe to run again: once more on a fresh connection when the server dropped
        // the pooled one (a restart), so the first request after it does not fail.
        try retrying { c throws(StoreError) in
            try c.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { () throws(StoreError) in
                try body(SQLReadTransaction(connection: c))
            }
        } cured: { c in
            !c.isConnected
        } beforeRetry: { attempt throws(StoreError) in
            if attempt >= 2 { throw .busy }
        }
    }

    /// Runs `body` as one unit of work of a group (`PostgresGroupTransactions`), again from the
    /// start after a serialization failure, a deadlock or a unique key another writer committed
    /// meanwhile: its savepoint is rolled back to, and every write body is a function of what it
    /// reads in it. The change-log entries it recorded are written, and this process's, once its
    /// group committed.
    func writeRows<R>(on lane: GroupCommit<PostgresGroupTransactions>? = nil,
                      _ body: (SQLWriteTransaction<PostgresConnection, PostgresWriteHooks>) throws(StoreError) -> R)
        throws(StoreError) -> R {
        try (lane ?? writer).run { group throws(StoreError) in
            try body(SQLWriteTransaction(connection: group.connection, hooks: PostgresWriteHooks(group: group),
                                         upkeep: upkeep.installed))
        }
    }

    /// Runs `body` on a pooled connection, and again on another after a `.busy` failure that
    /// `cured` (asked of the failed connection before it goes back to the pool) says a new
    /// attempt can cure; `beforeRetry` waits, or throws to give up, with the attempts made so far.
    private func retrying<R>(_ body: (PostgresConnection) throws(StoreError) -> R,
                             cured: (PostgresConnection) -> Bool,
                             beforeRetry: (_ attempt: Int) throws(StoreError) -> Void) throws(StoreError) -> R {
        var attempt = 0
        while true {
            attempt += 1
            var curable = false
            do throws(StoreError) {
                return try pool.withConnection { c throws(StoreError) in
                    do throws(StoreError) {
                        return try body(c)
                    } catch {
                        curable = cured(c)
                        throw error
                    }
                }
            } catch .busy where curable {
                try beforeRetry(attempt)
            }
        }
    }
}

import Lifecycle
import Foundation
import GatewayStore
import Synchronization

/// The SQLite backend of `GatewayStore`: one writer connection (SQLite allows one writer at a
/// time anyway) whose queued write units of work share a `BEGIN IMMEDIATE` transaction and its
/// commit, each in a savepoint (`GroupCommit`, decision 109), and a capped
/// pool of reader connections (`SQLiteSettings.readerPoolSize`), which WAL lets read committed
/// snapshots while the writer works. The row access is `GatewayStore`'s, written once.
public final class SQLiteStore: UpkeptStore, WriteQueueing {
    public let path: String
    private let settings: SQLiteSettings
    private let log: StoreLog
    /// SQLite admits one writer at a time; queueing writers here keeps them off the busy handler,
    /// and lets those that queued during one commit share the next. Waiters block (a condition
    /// variable, not a spinning `Mutex`): a commit holds the writer across its fsync.
    private let writer: GroupCommit<SQLiteGroupTransactions>
    private let idleReaders: Mutex<[SQLiteConnection]>
    /// One permit per reader connection the pool may hold: a read waits for one when all are busy.
    private let readerPermits: Permits
    /// The reader connections the pool holds at most.
    public let readers: Int
    public let upkeep = FactsUpkeep()

    /// Reader connections by default (`ISSUE_GATEWAY_SQLITE_READERS`, decision 113): reads use
    /// the CPU only (the pages are cached), so more readers than cores only take turns on them
    /// and hand the cores to one another; the writer is not one of them.
    public static let defaultReaders = 8

    /// Opens (creating it and its parent folder if needed) and migrates the database at `path`,
    /// with at most `readers` reader connections at once. What SQLite says when it fails goes to
    /// `log`, never into the thrown error.
    public convenience init(path: String, groupCommit: GroupCommitLimits = GroupCommitLimits(),
                            readers: Int = SQLiteStore.defaultReaders, log: StoreLog = .standardError) throws(StoreError) {
        var settings = SQLiteSettings()
        settings.groupCommit = groupCommit
        settings.readerPoolSize = readers
        try self.init(path: path, settings: settings, log: log)
    }

    init(path: String, settings: SQLiteSettings, log: StoreLog = .standardError) throws(StoreError) {
        self.path = path
        self.settings = settings
        self.log = log
        try Self.createParentFolder(of: path, log)
        let connection = try SQLiteConnection(path: path, settings: settings, log: log)
        try SQLiteSchema.migrate(connection)
        writer = GroupCommit(SQLiteGroupTransactions(writer: connection), limits: settings.groupCommit)
        idleReaders = Mutex([])
        readers = max(1, settings.readerPoolSize)
        readerPermits = Permits(readers)
    }

    /// The schema version the file is at (`PRAGMA user_version`).
    public func schemaVersion() throws(StoreError) -> Int {
        try onReader { c throws(StoreError) in try SQLiteSchema.userVersion(c) }
    }

    public var queuedWrites: Int { writer.queuedUnits }

    public func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try onReader { c throws(StoreError) in try body(SQLReadTransaction(connection: c)) }
    }

    public func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try writer.run { connection throws(StoreError) in
            try body(SQLWriteTransaction(connection: connection, upkeep: upkeep.installed))
        }
    }

    func onReader<R>(_ body: (SQLiteConnection) throws(StoreError) -> R) throws(StoreError) -> R {
        let connection = try takeReader()
        defer { returnReader(connection) }
        return try connection.readTransaction { () throws(StoreError) in try body(connection) }
    }

    /// An idle reader, or a new one while the pool holds fewer than its cap.
    private func takeReader() throws(StoreError) -> SQLiteConnection {
        _ = readerPermits.take()
        if let idle = idleReaders.withLock({ $0.popLast() }) { return idle }
        do {
            return try SQLiteConnection(path: path, settings: settings, log: log)
        } catch {
            readerPermits.giveBack()
            throw error
        }
    }

    private func returnReader(_ connection: SQLiteConnection) {
        idleReaders.withLock { $0.append(connection) }
        readerPermits.giveBack()
    }

    private static func createParentFolder(of path: String, _ log: StoreLog) throws(StoreError) {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            log.failure("cannot create folder \(parent.path): \(error.localizedDescription)")
            throw .failed
        }
    }
}

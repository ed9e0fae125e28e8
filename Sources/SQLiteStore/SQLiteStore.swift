import Lifecycle
import Foundation
import GatewayStore
import Synchronization

/// The SQLite backend of `GatewayStore`: one writer connection behind a lock (SQLite allows one
/// writer at a time anyway) running each write unit of work in `BEGIN IMMEDIATE`, and a capped
/// pool of reader connections (`SQLiteSettings.readerPoolSize`), which WAL lets read committed
/// snapshots while the writer works. The row access is `GatewayStore`'s, written once.
public final class SQLiteStore: UpkeptStore {
    public let path: String
    private let settings: SQLiteSettings
    private let log: StoreLog
    /// SQLite admits one writer at a time; queueing writers here keeps them off the busy handler.
    /// A blocking lock, not `Mutex`: a write unit of work holds it across its fsync (milliseconds),
    /// and `Mutex`'s waiters spin first, taking the core the holder needs (2-core machines).
    private let writer: Condition<SQLiteConnection>
    private let idleReaders: Mutex<[SQLiteConnection]>
    /// One permit per reader connection the pool may hold: a read waits for one when all are busy.
    private let readerPermits: Permits
    public let upkeep = FactsUpkeep()

    /// Opens (creating it and its parent folder if needed) and migrates the database at `path`.
    /// What SQLite says when it fails goes to `log`, never into the thrown error.
    public convenience init(path: String, log: StoreLog = .standardError) throws(StoreError) {
        try self.init(path: path, settings: SQLiteSettings(), log: log)
    }

    init(path: String, settings: SQLiteSettings, log: StoreLog = .standardError) throws(StoreError) {
        self.path = path
        self.settings = settings
        self.log = log
        try Self.createParentFolder(of: path, log)
        let connection = try SQLiteConnection(path: path, settings: settings, log: log)
        try SQLiteSchema.migrate(connection)
        writer = Condition(connection)
        idleReaders = Mutex([])
        readerPermits = Permits(max(1, settings.readerPoolSize))
    }

    /// The schema version the file is at (`PRAGMA user_version`).
    public func schemaVersion() throws(StoreError) -> Int {
        try onReader { c throws(StoreError) in try SQLiteSchema.userVersion(c) }
    }

    public func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try onReader { c throws(StoreError) in try body(SQLReadTransaction(connection: c)) }
    }

    public func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try writer.withLock { connection throws(StoreError) in
            try connection.writeTransaction { () throws(StoreError) in
                try body(SQLWriteTransaction(connection: connection, upkeep: upkeep.installed))
            }
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

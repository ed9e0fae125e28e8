import Foundation
import Synchronization

/// The SQLite implementation of `GatewayStore`: one writer connection behind a lock (SQLite allows
/// one writer at a time anyway) and a pool of reader connections, which WAL lets read committed
/// snapshots while the writer works.
public final class SQLiteStore: GatewayStore {
    public let path: String
    private let settings: SQLiteSettings
    /// SQLite admits one writer at a time; queueing writers here keeps them off the busy handler.
    private let writerLock = NSLock()
    private let writer: SQLiteConnection
    private let idleReaders: Mutex<[SQLiteConnection]>

    /// Opens (creating it and its parent folder if needed) and migrates the database at `path`.
    public convenience init(path: String) throws(StoreError) {
        try self.init(path: path, settings: SQLiteSettings())
    }

    init(path: String, settings: SQLiteSettings) throws(StoreError) {
        self.path = path
        self.settings = settings
        try Self.createParentFolder(of: path)
        let connection = try SQLiteConnection(path: path, settings: settings)
        try SQLiteSchema.migrate(connection)
        writer = connection
        idleReaders = Mutex([])
    }

    /// The schema version the file is at (`PRAGMA user_version`).
    public func schemaVersion() throws(StoreError) -> Int {
        try read { c throws(StoreError) in try SQLiteSchema.userVersion(c) }
    }

    /// Runs `body` in one write transaction on the writer connection.
    @discardableResult
    func write<R>(_ body: (SQLiteConnection) throws(StoreError) -> R) throws(StoreError) -> R {
        writerLock.lock()
        defer { writerLock.unlock() }
        return try writer.writeTransaction { () throws(StoreError) in try body(writer) }
    }

    /// Runs `body` in one read transaction on a pooled reader connection.
    @discardableResult
    func read<R>(_ body: (SQLiteConnection) throws(StoreError) -> R) throws(StoreError) -> R {
        let connection = try takeReader()
        defer { returnReader(connection) }
        return try connection.readTransaction { () throws(StoreError) in try body(connection) }
    }

    private func takeReader() throws(StoreError) -> SQLiteConnection {
        if let idle = idleReaders.withLock({ $0.popLast() }) { return idle }
        return try SQLiteConnection(path: path, settings: settings)
    }

    private func returnReader(_ connection: SQLiteConnection) {
        idleReaders.withLock { pool in
            if pool.count < settings.readerPoolSize { pool.append(connection) }
        }
    }

    private static func createParentFolder(of path: String) throws(StoreError) {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw .io("cannot create folder \(parent.path): \(error.localizedDescription)")
        }
    }
}

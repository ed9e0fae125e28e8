import Foundation
import Testing
import GatewayStore
@testable import SQLiteStore
import Synchronization
import TestSupport

/// What a caller learns when SQLite fails: retryable or not, and never SQLite's own words, which
/// go to the store's log instead.
@Suite struct SQLiteFailureTests {
    /// Collects what the store logs.
    final class LogLines: Sendable {
        let lines = Mutex<[String]>([])
        var log: StoreLog { StoreLog { line in self.lines.withLock { $0.append(line) } } }
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    @Test func aBusyDatabaseIsARetryableError() throws {
        let db = TemporaryDatabase()
        let logged = LogLines()
        var settings = SQLiteSettings()
        settings.busyTimeoutMilliseconds = 20
        let store = try SQLiteStore(path: db.path, settings: settings, log: logged.log)
        let other = try SQLiteFile(db.path)
        try #require(other.execute("BEGIN IMMEDIATE"))

        #expect(throws: StoreError.busy) { try store.createAccount(Fixtures.account("alice")) }
        #expect(StoreError.busy.isRetryable)
        #expect(logged.text.contains("database is locked"), "\(logged.text)")

        try #require(other.execute("ROLLBACK"))
        try store.createAccount(Fixtures.account("alice"))
        #expect(try store.account(id: "alice") != nil, "the same unit of work succeeds once the lock is gone")
    }

    @Test func aBrokenFileFailsWithoutSQLitesWords() throws {
        let db = TemporaryDatabase()
        try FileManager.default.createDirectory(atPath: (db.path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: db.path))
        let logged = LogLines()
        do {
            _ = try SQLiteStore(path: db.path, log: logged.log)
            Issue.record("a file that is not a database opened")
        } catch {
            #expect(error == .failed)
            #expect(!error.isRetryable)
            #expect(!"\(error)".contains("not a database"))
            #expect(!String(reflecting: error).contains("not a database"))
        }
        #expect(logged.text.contains("file is not a database"), "\(logged.text)")
    }

    @Test func aRowExistingAlreadyIsTheInsertsAnswer() throws {
        let db = TemporaryDatabase()
        let store = try SQLiteStore(path: db.path, log: LogLines().log)
        #expect(try store.createAccount(Fixtures.account("alice")) == .created)
        #expect(try store.write { tx throws(StoreError) in try tx.insert(Fixtures.account("alice")) } == false)
        #expect(try store.createAccount(Fixtures.account("alice")) == .taken)
    }

    @Test func aBrokenUniquenessRuleIsAFailureNamingNoTableOrColumn() throws {
        let db = TemporaryDatabase()
        let logged = LogLines()
        let store = try SQLiteStore(path: db.path, log: logged.log)
        try store.importCatalog(Fixtures.catalog)
        let batch = CodeBatch(batchId: "b", publicationId: "monthly", issueId: nil, duration: "P1M", expiresAt: nil,
                              createdAt: Fixtures.t0)
        try store.createCodeBatch(batch, codeHashes: ["h"])
        do {
            try store.createCodeBatch(batch, codeHashes: ["h"])
            Issue.record("a second batch b was inserted")
        } catch {
            #expect(error == .failed)
            #expect(!"\(error)".contains("UNIQUE") && !"\(error)".contains("code_batches"), "\(error)")
        }
        #expect(logged.text.contains("UNIQUE"), "\(logged.text)")
    }
}

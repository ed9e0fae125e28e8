import Foundation
import Testing
import CSQLite
import IssueCatalog
import GatewayStore
@testable import SQLiteStore
import TestSupport
import Wire

@Suite struct StoreDurabilityTests {
    @Test func migratesAnEmptyFileAndReopensAtTheCurrentVersion() throws {
        let db = TemporaryDatabase()
        try FileManager.default.createDirectory(atPath: (db.path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: db.path, contents: Data()))
        do {
            let store = try db.open()
            #expect(try store.schemaVersion() == SQLiteSchema.currentVersion)
            try store.importCatalog(Fixtures.catalog)
        }
        let reopened = try db.open()
        #expect(try reopened.schemaVersion() == SQLiteSchema.currentVersion)
        #expect(try reopened.loadCatalog() == Fixtures.catalog.normalized())
    }

    @Test func refusesADatabaseFromANewerGateway() throws {
        let db = TemporaryDatabase()
        _ = try db.open()
        var handle: OpaquePointer?
        #expect(sqlite3_open(db.path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "PRAGMA user_version = 999", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        #expect(throws: StoreError.self) { try db.open() }
    }

    /// Readers keep reading committed snapshots while the writer commits: every load sees a catalog
    /// whose issue count matches a whole number of committed inserts, and the last one sees them all.
    @Test(arguments: StoreBackend.all)
    func readersAndAWriterAtOnce(_ backend: StoreBackend) async throws {
        let opened = try backend.open()
        let store = opened.store
        _ = try store.upsertPublication(Publication(id: "p", title: "P"))
        let inserts = 200
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for n in 0..<inserts {
                    try store.insertIssue(Issue(publicationId: "p", id: "i\(n)", title: "Issue \(n)",
                                                publishedAt: Instant(secondsSinceEpoch: Int64(n)),
                                                assets: [Asset(path: "/content/p/i\(n)/issue.pdf")]))
                }
                return inserts
            }
            for _ in 0..<3 {
                group.addTask {
                    var reads = 0, last = 0
                    while last < inserts {
                        let catalog = try store.loadCatalog()
                        #expect(catalog.issues.count >= last, "a reader never goes back in time")
                        #expect(catalog.issues.allSatisfy { $0.assets.count == 1 }, "no half-written issue")
                        last = catalog.issues.count
                        reads += 1
                    }
                    return reads
                }
            }
            for try await _ in group {}
        }
        #expect(try store.loadCatalog().issues.count == inserts)
        #expect(try store.catalogRevision() == Int64(inserts + 1))
    }
}

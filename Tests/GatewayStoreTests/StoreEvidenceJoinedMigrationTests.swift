import Foundation
import Testing
import GatewayStore
@testable import PostgresStore
@testable import SQLiteStore
import TestSupport

/// Decision 120 on each backend: a database whose E36 evidence holds one row per period has every
/// account with interval evidence marked due when it is opened by this gateway, so its rows are
/// derived again (joined) before a report reads them; an account already marked keeps its mark.
@Suite struct StoreEvidenceJoinedMigrationTests {
    /// The step's position among the shared steps.
    static let step = SharedMigration.all.firstIndex { $0.sql(for: .sqlite) == SharedMigration.evidenceJoined.sql(for: .sqlite) }!

    static let rows = """
        INSERT INTO accounts (id, token_hash, created_at) VALUES ('alice', 'ha', 0), ('bob', 'hb', 0), ('carol', 'hc', 0),
            ('dave', 'hd', 0);
        INSERT INTO circulation_evidence (account_id, publication_id, kind, start_at, end_at, issue_id, basis, store,
                                          product_id, subscription_id, began_at, span) VALUES
            ('alice', 'p1', 0, 0, 10, '', 0, 'appStore', 'a', 's1', 0, 0),
            ('alice', 'p1', 0, 10, 20, '', 0, 'appStore', 'a', 's1', 0, 0),
            ('bob', 'p1', 1, 0, 0, '', 0, 'appStore', 'a', 's2', 0, 0),
            ('carol', 'p1', 0, 0, 10, '', 3, NULL, NULL, 'g1', 0, 0),
            ('gone', 'p1', 0, 0, 10, '', 3, NULL, NULL, 'g2', 0, 0);
        INSERT INTO report_rows_due (account_id, marks) VALUES ('carol', 3);
        """

    static func expectMarked(_ store: any GatewayStore) throws {
        let due = try store.read { tx throws(StoreError) in try tx.reportRowsDue(limit: 100) }
        #expect(due == ["alice", "carol"], "accounts with interval evidence, and the one marked before")
    }

    @Test func e36AnSQLiteFileWithOneRowPerPeriodMarksItsAccountsDue() throws {
        let db = TemporaryDatabase()
        let before = SQLiteSchema.migrations.count - SharedMigration.all.count + Self.step
        try FileManager.default.createDirectory(atPath: (db.path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let file = try SQLiteFile(db.path)
        try #require(file.execute(SQLiteSchema.migrations.prefix(before).map(\.schema).joined(separator: ";\n")
            + ";\nPRAGMA user_version = \(before);\n" + Self.rows))
        let store = try db.open()
        #expect(try store.schemaVersion() == SQLiteSchema.currentVersion)
        try Self.expectMarked(store)
        #expect(try file.integer("SELECT marks FROM report_rows_due WHERE account_id = 'carol'") == 3)
    }

    @Test(.postgresCluster)
    func e36APostgreSQLSchemaWithOneRowPerPeriodMarksItsAccountsDue() throws {
        let schema = try TemporaryPostgresSchema()
        let before = PostgresSchema.migrations.count - SharedMigration.all.count + Self.step
        try schema.execute("CREATE TABLE gateway_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)")
        for (index, step) in PostgresSchema.migrations.prefix(before).enumerated() {
            try schema.execute(step.sql(for: .postgres) + ";\nINSERT INTO gateway_migrations (version, applied_at) VALUES (\(index + 1), 0)")
        }
        try schema.execute(Self.rows)
        let store = try schema.open()
        #expect(try store.schemaVersion() == PostgresSchema.currentVersion)
        try Self.expectMarked(store)
    }
}

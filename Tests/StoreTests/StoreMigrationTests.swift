import Testing
import Entitle
import GatewayStore
import IssueCatalog
@testable import PostgresStore
@testable import SQLiteStore
import TestSupport

/// The shared migration that keys transactions by store (E1 as amended) and gives products their
/// store fields, on a database written before it: every row kept, all of them the App Store's.
@Suite struct StoreMigrationTests {
    /// Rows as the released schemas hold them (`is_upgraded` spelled per backend).
    static func releasedRows(upgraded: String, notUpgraded: String) -> String {
        """
        INSERT INTO publications VALUES ('monthly', 'The Monthly');
        INSERT INTO products (id, kind, grants, subscription_group, level)
        VALUES ('monthly.1m', 'autoRenewable', 'monthly', 'g', 1);
        INSERT INTO accounts (id, token_hash, created_at) VALUES ('alice', 'h', 0);
        INSERT INTO transactions (environment, transaction_id, original_transaction_id, product_id,
            purchase_date, expires_date, is_upgraded, ownership, source, observed_at)
        VALUES ('production', '1', '1', 'monthly.1m', 0, 1000, \(notUpgraded), 'purchased', 'verifyReceipt', 7),
               ('sandbox', '1', '1', 'monthly.1m', 0, 2000, \(upgraded), 'familyShared', 'notificationV2', NULL);
        INSERT INTO owners (environment, original_transaction_id, account_id, bound_at)
        VALUES ('production', '1', 'alice', 0), ('sandbox', '1', 'alice', 0);
        """
    }

    static func expectEveryRowIsTheAppStores(_ store: any GatewayStore) throws {
        let product = try #require(try store.loadCatalog().products.first)
        #expect(product.store == .appStore && product.storeProductId == "monthly.1m")
        let stored = try store.accountFacts("alice").transactions
        #expect(stored == [
            Transaction(environment: .production, transactionId: "1", originalTransactionId: "1", productId: "monthly.1m",
                        purchaseDate: .init(millisecondsSinceEpoch: 0), expiresDate: .init(millisecondsSinceEpoch: 1000),
                        source: .receipt, observedAt: .init(millisecondsSinceEpoch: 7)),
            Transaction(environment: .sandbox, transactionId: "1", originalTransactionId: "1", productId: "monthly.1m",
                        purchaseDate: .init(millisecondsSinceEpoch: 0), expiresDate: .init(millisecondsSinceEpoch: 2000),
                        isUpgraded: true, ownership: .familyShared, source: .notificationV2),
        ])
        // The new key takes the same id from another store beside the App Store's.
        var play = try #require(stored.first)
        play.store = .googlePlay
        _ = try store.ingest(IngestBatch(accountId: "alice", transactions: [play], at: Fixtures.t0), policy: .transfer)
        #expect(try store.accountFacts("alice").transactions.map(\.store) == [.appStore, .googlePlay, .appStore])
    }

    @Test func anSQLiteFileFromBeforeStoresUpgrades() throws {
        let db = TemporaryDatabase()
        try db.writeVersionOne(rows: Self.releasedRows(upgraded: "1", notUpgraded: "0"))
        let store = try db.open()
        #expect(try store.schemaVersion() == SQLiteSchema.currentVersion)
        try Self.expectEveryRowIsTheAppStores(store)
    }

    @Test(.enabled(if: TemporaryPostgresSchema.clusterURL != nil, "ISSUE_GATEWAY_TEST_DATABASE_URL is not set"))
    func aPostgreSQLSchemaFromBeforeStoresUpgrades() throws {
        let schema = try TemporaryPostgresSchema(clusterURL: try #require(TemporaryPostgresSchema.clusterURL))
        // The released steps, recorded as a gateway of that time would have (`PostgresSchema.migrate`).
        let released = PostgresSchema.migrations.count - SharedMigration.all.count
        try schema.execute("CREATE TABLE gateway_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)")
        for (index, step) in PostgresSchema.migrations.prefix(released).enumerated() {
            try schema.execute(step + ";\nINSERT INTO gateway_migrations (version, applied_at) VALUES (\(index + 1), 0)")
        }
        try schema.execute(Self.releasedRows(upgraded: "TRUE", notUpgraded: "FALSE"))
        let store = try schema.open()
        #expect(try store.schemaVersion() == PostgresSchema.currentVersion)
        try Self.expectEveryRowIsTheAppStores(store)
    }
}

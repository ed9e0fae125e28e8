import Testing
import Entitle
import GatewayStore
import IssueCatalog
@testable import SQLiteStore
import TestSupport

/// The shared migration that keys transactions by store (E1 as amended) and gives products their
/// store fields, on a database written before it: every row kept, all of them the App Store's.
@Suite struct StoreMigrationTests {
    @Test func aDatabaseFromBeforeStoresUpgradesEveryRowToTheAppStore() throws {
        let db = TemporaryDatabase()
        try db.writeVersionOne(rows: """
            INSERT INTO publications VALUES ('monthly', 'The Monthly');
            INSERT INTO products (id, kind, grants, subscription_group, level)
            VALUES ('monthly.1m', 'autoRenewable', 'monthly', 'g', 1);
            INSERT INTO accounts (id, token_hash, created_at) VALUES ('alice', 'h', 0);
            INSERT INTO transactions (environment, transaction_id, original_transaction_id, product_id,
                purchase_date, expires_date, is_upgraded, ownership, source, observed_at)
            VALUES ('production', '1', '1', 'monthly.1m', 0, 1000, 0, 'purchased', 'verifyReceipt', 7),
                   ('sandbox', '1', '1', 'monthly.1m', 0, 2000, 1, 'familyShared', 'notificationV2', NULL);
            INSERT INTO owners VALUES ('production', '1', 'alice', 0), ('sandbox', '1', 'alice', 0);
            """)
        let store = try db.open()
        #expect(try store.schemaVersion() == SQLiteSchema.currentVersion)
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
        var play = stored[0]
        play.store = .googlePlay
        _ = try store.ingest(IngestBatch(accountId: "alice", transactions: [play], at: Fixtures.t0), policy: .transfer)
        #expect(try store.accountFacts("alice").transactions.map(\.store) == [.appStore, .googlePlay, .appStore])
    }
}

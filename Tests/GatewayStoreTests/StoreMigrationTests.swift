import Foundation
import Testing
import Entitle
import GatewayStore
import IssueCatalog
@testable import PostgresStore
@testable import SQLiteStore
import TestSupport
import Wire

/// The shared migrations that key transactions (step 1) and everything kept per subscription
/// (step 2) by store (E1 as amended, E23) and give products their store fields, on a database
/// written before them: every row kept, all of them the App Store's.
@Suite struct StoreMigrationTests {
    static let receipt = "U0FNRQ=="

    /// Rows as the released schemas hold them (booleans spelled per backend; `receipts`: the
    /// subscription's receipt as the backend's released schema keeps it).
    static func releasedRows(upgraded: String, notUpgraded: String, receipts: String) -> String {
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
        INSERT INTO renewal_infos (environment, original_transaction_id, product_id, auto_renew_status,
            is_in_billing_retry, source)
        VALUES ('production', '1', 'monthly.1m', \(upgraded), \(notUpgraded), 'verifyReceipt');
        \(receipts)
        """
    }

    static let appleKey = SubscriptionKey(environment: .production, originalTransactionId: "1")

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
        #expect(try store.accountFacts("alice").renewals == [
            RenewalInfo(environment: .production, originalTransactionId: "1", productId: "monthly.1m",
                        autoRenewStatus: true, source: .receipt),
        ])
        #expect(try store.owner(of: appleKey) == "alice")
        let receipt = try store.latestReceipt(for: appleKey)
        #expect(receipt?.receiptData == Self.receipt && receipt?.accountId == "alice")
        // The new key takes the same id from another store beside the App Store's.
        var play = try #require(stored.first)
        play.store = .googlePlay
        try store.createAccount(Fixtures.account("bob"))
        _ = try store.ingest(IngestBatch(accountId: "bob", transactions: [play], at: Fixtures.t0), policy: .keep).stored()
        #expect(try store.accountFacts("alice").transactions.map(\.store) == [.appStore, .appStore])
        #expect(try store.accountFacts("bob").transactions == [play])
        #expect(try store.owner(of: appleKey) == "alice" && store.owner(of: play.subscriptionKey) == "bob")
        #expect(try store.latestReceipt(for: play.subscriptionKey) == nil)
        // E34: the account's token is its first session, with no device, last used when the step
        // ran (an upgrade signs nobody out by idleness); the account's own column holds no hash.
        let session = try #require(try store.session(tokenHash: "h"))
        #expect(session.id == "sess-alice" && session.accountId == "alice" && session.device == SessionDevice())
        let aDayAgo = Instant(millisecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1000) - 86_400_000)
        #expect(session.isLive(idleCutoff: aDayAgo) && session.createdAt == Instant(millisecondsSinceEpoch: 0))
        #expect(try store.account(id: "alice")?.tokenHash == "alice")
    }

    @Test func anSQLiteFileFromBeforeStoresUpgrades() throws {
        let db = TemporaryDatabase()
        try db.writeVersionOne(rows: Self.releasedRows(
            upgraded: "1", notUpgraded: "0",
            receipts: "INSERT INTO receipts VALUES ('production', '1', '\(Self.receipt)', 5);"))
        let store = try db.open()
        #expect(try store.schemaVersion() == SQLiteSchema.currentVersion)
        try Self.expectEveryRowIsTheAppStores(store)
    }

    @Test(.postgresCluster)
    func aPostgreSQLSchemaFromBeforeStoresUpgrades() throws {
        let schema = try TemporaryPostgresSchema()
        // The released steps, recorded as a gateway of that time would have (`PostgresSchema.migrate`).
        let released = PostgresSchema.migrations.count - SharedMigration.all.count
        try schema.execute("CREATE TABLE gateway_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)")
        for (index, step) in PostgresSchema.migrations.prefix(released).enumerated() {
            try schema.execute(step.sql(for: .postgres) + ";\nINSERT INTO gateway_migrations (version, applied_at) VALUES (\(index + 1), 0)")
        }
        let digest = try ReceiptContent(data: Self.receipt).digest
        try schema.execute(Self.releasedRows(upgraded: "TRUE", notUpgraded: "FALSE", receipts: """
            INSERT INTO receipt_contents VALUES ('\(digest)', '\(Self.receipt)');
            INSERT INTO latest_receipts VALUES ('production', '1', '\(digest)', 5);
            INSERT INTO fetched_histories VALUES ('production', '1', 5);
            """))
        let store = try schema.open()
        #expect(try store.schemaVersion() == PostgresSchema.currentVersion)
        try Self.expectEveryRowIsTheAppStores(store)
        // The SQLite file is written at version one, before fetched histories: only PostgreSQL's has one to keep.
        let other = SubscriptionKey(environment: .sandbox, originalTransactionId: "1")
        #expect(try store.historiesNotFetched([Self.appleKey, other]) == [other])
    }
}

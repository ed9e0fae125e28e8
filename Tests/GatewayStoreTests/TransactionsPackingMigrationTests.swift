import Foundation
import Testing
import Entitle
import GatewayStore
import IssueCatalog
@testable import PostgresStore
@testable import SQLiteStore
import TestSupport
import Wire

/// The step that packs each subscription's transactions into one row (decision 118), on a
/// database written by the release before it: every field of every row read back as it was
/// stored (E1's facts unchanged), found by transaction id and by Stripe invoice as before.
@Suite struct TransactionsPackingMigrationTests {
    /// `transactions` rows as the release before wrote them: one with every optional field set,
    /// one with none, and a Stripe invoice's two lines in a subscription no account owns.
    static let releasedRows = """
        INSERT INTO accounts (id, token_hash, created_at) VALUES ('alice', 'h', 0);
        INSERT INTO transactions (store, environment, transaction_id, original_transaction_id, product_id, purchase_date,
            original_purchase_date, expires_date, revocation_date, revocation_reason, is_upgraded, offer, ownership,
            web_order_line_item_id, subscription_group, app_account_token, source, observed_at, revocation_type,
            revocation_percentage, app_transaction_id, offer_period, period_built)
        VALUES ('appStore', 'production', 't1', 'o1', 'monthly.1m', -5000, -9000, 2000, 1500, 1, TRUE, 'winBack',
                'familyShared', 'w1', 'grüppe', 'tok', 'notificationV2', 9223372036854775807, 'proratedRefund', 58000,
                'app1', 'P1DT12H', TRUE),
               ('appStore', 'production', 't2', 'o1', 'monthly.1m', 3000, NULL, NULL, NULL, NULL, FALSE, NULL,
                'purchased', NULL, NULL, NULL, 'verifyReceipt', NULL, NULL, NULL, NULL, NULL, FALSE),
               ('stripe', 'production', 'in_1/li_2', 'sub_1', 'price_y', 10, NULL, 20, NULL, NULL, FALSE, NULL,
                'purchased', NULL, NULL, NULL, 'stripeEvent', 11, NULL, NULL, NULL, NULL, FALSE),
               ('stripe', 'production', 'in_1/li_1', 'sub_1', 'price_m', 10, NULL, 30, NULL, NULL, FALSE, NULL,
                'purchased', NULL, NULL, NULL, 'stripeEvent', 11, NULL, NULL, NULL, NULL, FALSE);
        INSERT INTO owners (store, environment, original_transaction_id, account_id, bound_at)
        VALUES ('appStore', 'production', 'o1', 'alice', 0);
        """

    static let full = Transaction(
        environment: .production, transactionId: "t1", originalTransactionId: "o1", productId: "monthly.1m",
        purchaseDate: .init(millisecondsSinceEpoch: -5000), originalPurchaseDate: .init(millisecondsSinceEpoch: -9000),
        expiresDate: .init(millisecondsSinceEpoch: 2000), revocationDate: .init(millisecondsSinceEpoch: 1500),
        revocationReason: 1, revocationKind: .proratedRefund, revocationPercentage: 58000, isUpgraded: true, offer: .winBack,
        ownership: .familyShared, webOrderLineItemId: "w1", subscriptionGroup: "grüppe", appAccountToken: "tok",
        appTransactionId: "app1", offerPeriod: ISODuration("P1DT12H"), periodBuilt: true, source: .notificationV2,
        observedAt: .init(millisecondsSinceEpoch: .max))
    static let bare = Transaction(environment: .production, transactionId: "t2", originalTransactionId: "o1",
                                  productId: "monthly.1m", purchaseDate: .init(millisecondsSinceEpoch: 3000), source: .receipt)
    static func line(_ id: String, _ product: String, expires: Int64) -> Transaction {
        Transaction(store: .stripe, environment: .production, transactionId: "in_1/\(id)", originalTransactionId: "sub_1",
                    productId: product, purchaseDate: .init(millisecondsSinceEpoch: 10),
                    expiresDate: .init(millisecondsSinceEpoch: expires), source: .stripeEvent,
                    observedAt: .init(millisecondsSinceEpoch: 11))
    }

    static func expectTheSameFacts(_ store: any GatewayStore) throws {
        let apple = SubscriptionKey(environment: .production, originalTransactionId: "o1")
        #expect(try store.transactions(ofSubscription: apple) == [full, bare])
        #expect(try store.accountFacts("alice").transactions == [full, bare])
        let found = try store.lookup(transactionId: "t2", environment: .production)
        #expect(found?.accountId == "alice" && found?.originalTransactionId == "o1")
        #expect(try store.transactions(stripeInvoice: "in_1", environment: .production)
                == [line("li_1", "price_m", expires: 30), line("li_2", "price_y", expires: 20)])
        // A later fact of the same identity replaces the migrated one (E1).
        var renewed = bare
        renewed.expiresDate = .init(millisecondsSinceEpoch: 4000)
        _ = try store.ingest(IngestBatch(accountId: "alice", transactions: [renewed], at: Fixtures.t0), policy: .keep).stored()
        #expect(try store.transactions(ofSubscription: apple) == [full, renewed])
    }

    @Test func anSQLiteFileOfTheReleaseBeforeReadsTheSameFacts() throws {
        let db = TemporaryDatabase()
        try FileManager.default.createDirectory(atPath: (db.path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let before = SQLiteSchema.migrations.count - 1
        do {
            let file = try SQLiteFile(db.path)
            let steps = SQLiteSchema.migrations.prefix(before).map { $0.schema + ";\n" + $0.final }.joined(separator: ";\n")
            try #require(file.execute(steps + ";\nPRAGMA user_version = \(before);\n" + Self.releasedRows))
        }
        let store = try db.open()
        #expect(try store.schemaVersion() == SQLiteSchema.currentVersion)
        try Self.expectTheSameFacts(store)
    }

    @Test(.postgresCluster)
    func aPostgreSQLSchemaOfTheReleaseBeforeReadsTheSameFacts() throws {
        let schema = try TemporaryPostgresSchema()
        try schema.execute("CREATE TABLE gateway_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)")
        for (index, step) in PostgresSchema.migrations.dropLast().enumerated() {
            try schema.execute(step.sql(for: .postgres) + ";\n" + step.finalSQL(for: .postgres)
                               + ";\nINSERT INTO gateway_migrations (version, applied_at) VALUES (\(index + 1), 0)")
        }
        try schema.execute(Self.releasedRows)
        let store = try schema.open()
        #expect(try store.schemaVersion() == PostgresSchema.currentVersion)
        try Self.expectTheSameFacts(store)
    }
}

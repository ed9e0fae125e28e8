import Foundation
import Testing
import Entitle
import GatewayStore
@testable import SQLiteStore
import TestSupport

/// A receipt is stored once by content; subscriptions point to their latest (SQLite's rows).
@Suite struct ReceiptStorageTests {
    @Test func oneReceiptForSeveralSubscriptionsIsStoredOnce() throws {
        let db = TemporaryDatabase()
        let f = try IngestFixture(StoreBackend(name: "SQLite file") { OpenedStore(store: try db.open(), resources: db) })
        let receipt = String(repeating: "UkVDRUlQVA", count: 100)
        try f.ingest("alice", [Fixtures.transaction("1", original: "1"), Fixtures.transaction("2", original: "2"),
                               Fixtures.transaction("3", original: "3")], receipt: receipt)
        let file = try SQLiteFile(db.path)
        #expect(try file.integer("SELECT COUNT(*) FROM receipt_contents") == 1)
        #expect(try file.integer("SELECT COUNT(*) FROM latest_receipts") == 3)
        for id in ["1", "2", "3"] {
            let stored = try f.store.latestReceipt(for: SubscriptionKey(environment: .production, originalTransactionId: id))
            #expect(stored?.receiptData == receipt)
            #expect(stored?.accountId == "alice")
        }

        try f.ingest("alice", [Fixtures.transaction("4", original: "1")], receipt: "TkVXRVI=")
        #expect(try file.integer("SELECT COUNT(*) FROM receipt_contents") == 2, "2 and 3 still point to the first")
        try f.ingest("alice", [Fixtures.transaction("2", original: "2"), Fixtures.transaction("3", original: "3")],
                     receipt: "TkVXRVI=")
        #expect(try file.integer("SELECT COUNT(*) FROM receipt_contents") == 1, "a receipt nobody points to is gone")
        #expect(try f.store.latestReceipt(for: SubscriptionKey(environment: .production, originalTransactionId: "3"))?
            .receiptData == "TkVXRVI=")
    }

    /// Migration 2 on a database written by migration 1: each per-subscription copy becomes one
    /// content row and a pointer, facts versions start at 0, and the poller reads as before.
    @Test func aVersionOneDatabaseUpgrades() throws {
        let db = TemporaryDatabase()
        try db.writeVersionOne(rows: """
            INSERT INTO accounts (id, token_hash, created_at) VALUES ('alice', 'h', 0);
            INSERT INTO transactions (environment, transaction_id, original_transaction_id, product_id,
                purchase_date, expires_date, is_upgraded, ownership, source)
            VALUES ('production', '1', '1', 'monthly.1m', 0, 1000, 0, 'purchased', 'verifyReceipt'),
                   ('production', '2', '2', 'monthly.1m', 0, 2000, 0, 'purchased', 'verifyReceipt');
            INSERT INTO owners VALUES ('production', '1', 'alice', 0), ('production', '2', 'alice', 0);
            INSERT INTO receipts VALUES ('production', '1', 'U0FNRQ==', 5), ('production', '2', 'U0FNRQ==', 6);
            """)
        let store = try db.open()
        #expect(try store.schemaVersion() == SQLiteSchema.currentVersion)
        #expect(try store.accountFacts("alice").version == 0)
        let receipt = try store.latestReceipt(for: SubscriptionKey(environment: .production, originalTransactionId: "2"))
        #expect(receipt?.receiptData == "U0FNRQ==")
        #expect(receipt?.updatedAt.millisecondsSinceEpoch == 6)
        let file = try SQLiteFile(db.path)
        #expect(try file.integer("SELECT COUNT(*) FROM receipt_contents") == 1)
        #expect(try file.integer("SELECT COUNT(*) FROM sqlite_master WHERE name = 'receipts'") == 0)
        let due = try store.subscriptionsToPoll(expiringBefore: .init(millisecondsSinceEpoch: 5000),
                                                notBefore: .init(millisecondsSinceEpoch: 0), limit: 10)
        #expect(due.map(\.receiptData) == ["U0FNRQ==", "U0FNRQ=="])
    }
}

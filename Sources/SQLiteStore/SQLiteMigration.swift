import Entitle
import GatewayStore
import Wire

/// One step of `SQLiteSchema`: its DDL, then any rows it must rewrite that SQL alone cannot
/// (SQLite has no SHA-256), in the same transaction.
struct SQLiteMigration: Sendable {
    var schema: String
    var data: (@Sendable (SQLiteConnection) throws(StoreError) -> Void)? = nil

    /// Step 2: every per-subscription receipt copy becomes one content row and a pointer to it.
    static let moveReceiptsToContents: @Sendable (SQLiteConnection) throws(StoreError) -> Void = { c throws(StoreError) in
        let copies = try c.query("SELECT environment, original_transaction_id, receipt_data, updated_at FROM receipts") {
            row throws(StoreError) in
            (subscription: SubscriptionKey(environment: try row.decode(StoreEnvironment.self, 0, of: row.text(1)),
                                           originalTransactionId: row.text(1)),
             data: row.text(2), at: row.instant(3))
        }
        let tx = SQLWriteTransaction(connection: c)
        for copy in copies {
            let content = try ReceiptContent(data: copy.data)
            try tx.save(content)
            try tx.setLatestReceipt(content.digest, for: copy.subscription, at: copy.at)
        }
        try c.execute("DROP TABLE receipts")
    }
}

import Entitle
import GatewayStore
import Wire

/// One step of `SQLiteSchema`: its DDL, then any rows it must rewrite that SQL alone cannot
/// (SQLite has no SHA-256), in the same transaction.
struct SQLiteMigration: Sendable {
    var schema: String
    var data: (@Sendable (SQLiteConnection) throws(StoreError) -> Void)? = nil
    /// Statements after `data` (a shared step's `finalSQL`).
    var final = ""

    init(schema: String, data: (@Sendable (SQLiteConnection) throws(StoreError) -> Void)? = nil) {
        self.schema = schema; self.data = data
    }

    /// A step written once for both backends, its data step run on this connection.
    init(shared: SharedMigration) {
        schema = shared.sql(for: .sqlite)
        final = shared.finalSQL(for: .sqlite)
        if let step = shared.data { data = { c throws(StoreError) in try step.run(on: c) } }
    }

    /// Step 2: every per-subscription receipt copy becomes one content row and a pointer to it.
    /// The pointer is written as step 2's table holds it (later steps change the row access).
    static let moveReceiptsToContents: @Sendable (SQLiteConnection) throws(StoreError) -> Void = { c throws(StoreError) in
        let copies = try c.query("SELECT environment, original_transaction_id, receipt_data, updated_at FROM receipts") {
            (environment: $0.text(0), originalTransactionId: $0.text(1), data: $0.text(2), at: $0.instant(3))
        }
        let tx = SQLWriteTransaction(connection: c)
        for copy in copies {
            let content = try ReceiptContent(data: copy.data)
            try tx.save(content)
            try c.run("""
                INSERT INTO latest_receipts (environment, original_transaction_id, receipt_sha256, updated_at)
                VALUES (\(copy.environment), \(copy.originalTransactionId), \(content.digest), \(copy.at))
                """)
        }
        try c.execute("DROP TABLE receipts")
    }
}

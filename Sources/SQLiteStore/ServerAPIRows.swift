import Entitle
import GatewayStore
import Wire

/// What the App Store Server API work keeps: subscriptions fetched whole, and the instants of
/// background work's last success (`service_marks`); stored receipts in pages, for the migration.
extension SQLiteReading {
    func isHistoryFetched(_ subscription: SubscriptionKey) throws(StoreError) -> Bool {
        try connection.queryFirst("""
            SELECT 1 FROM fetched_histories WHERE environment = ? AND original_transaction_id = ?
            """, FactRows.key(subscription)) { _ in true } ?? false
    }

    func serviceMark(_ name: String) throws(StoreError) -> Instant? {
        try connection.queryFirst("SELECT at FROM service_marks WHERE name = ?", [.text(name)]) { $0.instant(0) }
    }

    func storedReceipts(after digest: String?, limit: Int) throws(StoreError) -> [ReceiptContent] {
        try connection.query("SELECT sha256, receipt_data FROM receipt_contents WHERE sha256 > ? ORDER BY sha256 LIMIT ?",
                             [.text(digest ?? ""), .optional(max(0, limit))]) { ReceiptContent(digest: $0.text(0), data: $0.text(1)) }
    }
}

extension SQLiteWriteTransaction {
    func markHistoryFetched(_ subscription: SubscriptionKey, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT OR IGNORE INTO fetched_histories (environment, original_transaction_id, fetched_at) VALUES (?, ?, ?)
            """, FactRows.key(subscription) + [.integer(instant.millisecondsSinceEpoch)])
    }

    func setServiceMark(_ name: String, at instant: Instant) throws(StoreError) {
        try connection.run("INSERT OR REPLACE INTO service_marks (name, at) VALUES (?, ?)",
                           [.text(name), .integer(instant.millisecondsSinceEpoch)])
    }
}

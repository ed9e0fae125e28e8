import Entitle
import GatewayStore
import Wire

/// What the App Store Server API work keeps: subscriptions fetched whole (`fetched_histories`),
/// the instants of background work's last success (`service_marks`); stored receipts in pages,
/// for the migration.
extension PostgresReading {
    func isHistoryFetched(_ subscription: SubscriptionKey) throws(StoreError) -> Bool {
        try connection.queryFirst("""
            SELECT 1 FROM fetched_histories WHERE environment = $1 AND original_transaction_id = $2
            """, FactRows.key(subscription)) { _ in true } ?? false
    }

    func serviceMark(_ name: String) throws(StoreError) -> Instant? {
        try connection.queryFirst("SELECT at FROM service_marks WHERE name = $1", [.text(name)]) { $0.instant(0) }
    }

    /// Byte order (`COLLATE "C"`), as SQLite pages them: the column was created with the
    /// database's collation.
    func storedReceipts(after digest: String?, limit: Int) throws(StoreError) -> [ReceiptContent] {
        try connection.query("""
            SELECT sha256, receipt_data FROM receipt_contents WHERE sha256 COLLATE "C" > $1
            ORDER BY sha256 COLLATE "C" LIMIT $2
            """, [.text(digest ?? ""), .optional(max(0, limit))]) { ReceiptContent(digest: $0.text(0), data: $0.text(1)) }
    }
}

extension PostgresWriteTransaction {
    func markHistoryFetched(_ subscription: SubscriptionKey, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT INTO fetched_histories (environment, original_transaction_id, fetched_at) VALUES ($1, $2, $3)
            ON CONFLICT DO NOTHING
            """, FactRows.key(subscription) + [.instant(instant)])
    }

    func setServiceMark(_ name: String, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT INTO service_marks (name, at) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET at = excluded.at
            """, [.text(name), .instant(instant)])
    }
}

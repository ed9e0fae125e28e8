import Entitle
import Wire

/// What the App Store Server API work keeps: subscriptions fetched whole (`fetched_histories`),
/// the instants of background work's last success (`service_marks`); stored receipts in pages,
/// for the migration.
extension SQLReading {
    public func isHistoryFetched(_ subscription: SubscriptionKey) throws(StoreError) -> Bool {
        try connection.exists("SELECT 1 FROM fetched_histories WHERE \(RecordRows.subscriptionKey(subscription))")
    }

    public func serviceMark(_ name: String) throws(StoreError) -> Instant? {
        try connection.queryFirst("SELECT at FROM service_marks WHERE name = \(name)") { $0.instant(0) }
    }

    /// Byte order on both backends (the column was created with the database's collation).
    public func storedReceipts(after digest: String?, limit: Int) throws(StoreError) -> [ReceiptContent] {
        let byteOrder = connection.dialect.byteOrder
        return try connection.query("""
            SELECT sha256, receipt_data FROM receipt_contents WHERE sha256\(byteOrder) > \(digest ?? "")
            ORDER BY sha256\(byteOrder) LIMIT \(max(0, limit))
            """) { ReceiptContent(digest: $0.text(0), data: $0.text(1)) }
    }
}

extension SQLWriteTransaction {
    public func markHistoryFetched(_ subscription: SubscriptionKey, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT INTO fetched_histories (store, environment, original_transaction_id, fetched_at)
            VALUES (\(subscription.store.rawValue), \(subscription.environment.rawValue), \(subscription.originalTransactionId),
                    \(instant))
            ON CONFLICT DO NOTHING
            """)
    }

    public func setServiceMark(_ name: String, at instant: Instant) throws(StoreError) {
        try connection.run(.upsert(into: "service_marks", key: ["name": name], set: ["at": instant]))
    }
}

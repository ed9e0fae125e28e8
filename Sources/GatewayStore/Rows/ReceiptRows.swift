import Entitle
import IssueCatalog
import Wire

/// Receipts stored once by content (`receipt_contents`), each subscription pointing to its latest
/// (`latest_receipts`); what the status poller reads. Notification UUIDs, recorded in the unit of
/// work that stores their facts.
extension SQLReading {
    public func latestReceipt(for subscription: SubscriptionKey) throws(StoreError) -> StoredReceipt? {
        try connection.queryFirst("""
            SELECT rc.receipt_data, o.account_id, lr.updated_at FROM latest_receipts lr
            JOIN receipt_contents rc ON rc.sha256 = lr.receipt_sha256
            LEFT JOIN owners o ON \(RecordRows.sameSubscription("o", "lr"))
            WHERE \(RecordRows.subscriptionKey(subscription, alias: "lr."))
            """) {
            StoredReceipt(subscription: subscription, receiptData: $0.text(0), accountId: $0.optionalText(1),
                          updatedAt: $0.instant(2))
        }
    }

    public func latestReceiptDigest(for subscription: SubscriptionKey) throws(StoreError) -> String? {
        try connection.queryFirst("""
            SELECT receipt_sha256 FROM latest_receipts WHERE \(RecordRows.subscriptionKey(subscription))
            """) { $0.text(0) }
    }

    /// A poll target's row: environment, original transaction id, latest expiry, billing retry,
    /// owner, receipt data, store. The subscriptions expiring in the window are a range of
    /// `subscription_facts_by_expiry` (store, latest expiry: kept with the facts, decision 118), those
    /// in billing retry or grace come from their renewal infos: no pass over every transaction.
    public func subscriptionsToPoll(expiringBefore before: Instant, notBefore: Instant, limit: Int, store: Store?)
        throws(StoreError) -> [PollTarget] {
        // The store in each branch of the OR, so each is one index range (SQLite's OR optimisation).
        let only: SQL = store.map { "s.store = \($0.rawValue) AND " } ?? ""
        return try connection.query("""
            SELECT s.environment, s.original_transaction_id, s.latest_expires, COALESCE(r.is_in_billing_retry, FALSE),
                   o.account_id, rc.receipt_data, s.store
            FROM subscription_facts s
            LEFT JOIN renewal_infos r ON \(RecordRows.sameSubscription("r", "s"))
            LEFT JOIN owners o ON \(RecordRows.sameSubscription("o", "s"))
            LEFT JOIN latest_receipts lr ON \(RecordRows.sameSubscription("lr", "s"))
            LEFT JOIN receipt_contents rc ON rc.sha256 = lr.receipt_sha256
            WHERE (\(only)s.latest_expires >= \(notBefore) AND s.latest_expires < \(before))
                OR (\(only)(s.store, s.environment, s.original_transaction_id) IN (
                    SELECT store, environment, original_transaction_id FROM renewal_infos
                    WHERE is_in_billing_retry OR grace_period_expires_date >= \(notBefore)))
            ORDER BY s.latest_expires NULLS FIRST, s.environment, s.store, s.original_transaction_id LIMIT \(max(0, limit))
            """) { row throws(StoreError) in
            let id = row.text(1)
            return PollTarget(
                subscription: SubscriptionKey(store: try row.decode(Store.self, 6, of: id),
                                              environment: try row.decode(StoreEnvironment.self, 0, of: id),
                                              originalTransactionId: id),
                accountId: row.optionalText(4), latestExpiresDate: row.optionalInstant(2),
                isInBillingRetry: row.bool(3), receiptData: row.optionalText(5))
        }
    }
}

extension SQLWriteTransaction {
    public func save(_ receipt: ReceiptContent) throws(StoreError) {
        try connection.run("""
            INSERT INTO receipt_contents (sha256, receipt_data) VALUES (\(receipt.digest), \(receipt.data))
            ON CONFLICT DO NOTHING
            """)
    }

    public func setLatestReceipt(_ digest: String, for subscription: SubscriptionKey, at instant: Instant) throws(StoreError) {
        try connection.run(.upsert(into: "latest_receipts", key: RecordRows.subscriptionColumns(subscription),
                                   set: ["receipt_sha256": digest, "updated_at": instant]))
    }

    public func deleteReceiptIfUnreferenced(_ digest: String) throws(StoreError) {
        try connection.run("""
            DELETE FROM receipt_contents WHERE sha256 = \(digest)
            AND NOT EXISTS (SELECT 1 FROM latest_receipts WHERE receipt_sha256 = \(digest))
            """)
    }

    /// `ON CONFLICT DO NOTHING`: of two processes taking one notification, the second changes no
    /// row (after waiting for the first to commit) and treats it as a duplicate.
    public func insertProcessedNotification(_ uuid: String, at instant: Instant) throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO processed_notifications (uuid, processed_at) VALUES (\(uuid), \(instant)) ON CONFLICT DO NOTHING
            """) == 1
    }
}

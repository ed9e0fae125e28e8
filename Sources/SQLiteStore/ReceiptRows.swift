import Entitle
import GatewayStore
import Wire

/// Receipts stored once by content (`receipt_contents`), each subscription pointing to its latest
/// (`latest_receipts`); what the status poller reads.
extension SQLiteReading {
    func latestReceipt(for subscription: SubscriptionKey) throws(StoreError) -> StoredReceipt? {
        try connection.queryFirst("""
            SELECT rc.receipt_data, o.account_id, lr.updated_at FROM latest_receipts lr
            JOIN receipt_contents rc ON rc.sha256 = lr.receipt_sha256
            LEFT JOIN owners o ON o.environment = lr.environment AND o.original_transaction_id = lr.original_transaction_id
            WHERE lr.environment = ? AND lr.original_transaction_id = ?
            """, FactRows.key(subscription)) {
            StoredReceipt(subscription: subscription, receiptData: $0.text(0), accountId: $0.optionalText(1),
                          updatedAt: $0.instant(2))
        }
    }

    func latestReceiptDigest(for subscription: SubscriptionKey) throws(StoreError) -> String? {
        try connection.queryFirst("""
            SELECT receipt_sha256 FROM latest_receipts WHERE environment = ? AND original_transaction_id = ?
            """, FactRows.key(subscription)) { $0.text(0) }
    }

    func subscriptionsToPoll(expiringBefore before: Instant, notBefore: Instant, limit: Int)
        throws(StoreError) -> [PollTarget] {
        try connection.query("""
            SELECT s.environment, s.original_transaction_id, s.latest, COALESCE(r.is_in_billing_retry, 0),
                   o.account_id, rc.receipt_data
            FROM (SELECT environment, original_transaction_id, MAX(expires_date) AS latest FROM transactions
                  GROUP BY environment, original_transaction_id) s
            LEFT JOIN renewal_infos r ON r.environment = s.environment AND r.original_transaction_id = s.original_transaction_id
            LEFT JOIN owners o ON o.environment = s.environment AND o.original_transaction_id = s.original_transaction_id
            LEFT JOIN latest_receipts lr
                ON lr.environment = s.environment AND lr.original_transaction_id = s.original_transaction_id
            LEFT JOIN receipt_contents rc ON rc.sha256 = lr.receipt_sha256
            WHERE (s.latest >= ? AND s.latest < ?) OR r.is_in_billing_retry = 1 OR r.grace_period_expires_date >= ?
            ORDER BY s.latest, s.environment, s.original_transaction_id LIMIT ?
            """, [.integer(notBefore.millisecondsSinceEpoch), .integer(before.millisecondsSinceEpoch),
                  .integer(notBefore.millisecondsSinceEpoch), .optional(max(0, limit))]) { row throws(StoreError) in try RecordRows.pollTarget(row) }
    }
}

extension SQLiteWriteTransaction {
    func save(_ receipt: ReceiptContent) throws(StoreError) {
        try connection.run("INSERT OR IGNORE INTO receipt_contents (sha256, receipt_data) VALUES (?, ?)",
                           [.text(receipt.digest), .text(receipt.data)])
    }

    func setLatestReceipt(_ digest: String, for subscription: SubscriptionKey, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT OR REPLACE INTO latest_receipts (environment, original_transaction_id, receipt_sha256, updated_at)
            VALUES (?, ?, ?, ?)
            """, FactRows.key(subscription) + [.text(digest), .integer(instant.millisecondsSinceEpoch)])
    }

    func deleteReceiptIfUnreferenced(_ digest: String) throws(StoreError) {
        try connection.run("""
            DELETE FROM receipt_contents WHERE sha256 = ?
            AND NOT EXISTS (SELECT 1 FROM latest_receipts WHERE receipt_sha256 = ?)
            """, [.text(digest), .text(digest)])
    }

    func insertProcessedNotification(_ uuid: String, at instant: Instant) throws(StoreError) -> Bool {
        try connection.run("INSERT OR IGNORE INTO processed_notifications (uuid, processed_at) VALUES (?, ?)",
                           [.text(uuid), .integer(instant.millisecondsSinceEpoch)]) == 1
    }
}

import IssueCatalog
import Entitle
import Wire

/// Transactions, renewal info, ownership (E4), receipts and notification dedupe.
extension SQLiteStore {
    public func transactions(ofAccount accountId: String) throws(StoreError) -> [Transaction] {
        try read { c throws(StoreError) in
            try c.query(FactRows.transactionColumns + """
                 JOIN owners o ON o.environment = t.environment AND o.original_transaction_id = t.original_transaction_id
                 WHERE o.account_id = ? ORDER BY t.environment, t.original_transaction_id, t.purchase_date, t.transaction_id
                """, [.text(accountId)]) { row throws(StoreError) in try FactRows.transaction(row) }
        }
    }

    public func renewalInfos(ofAccount accountId: String) throws(StoreError) -> [RenewalInfo] {
        try read { c throws(StoreError) in
            try c.query(FactRows.renewalColumns + """
                 JOIN owners o ON o.environment = r.environment AND o.original_transaction_id = r.original_transaction_id
                 WHERE o.account_id = ? ORDER BY r.environment, r.original_transaction_id
                """, [.text(accountId)]) { row throws(StoreError) in try FactRows.renewalInfo(row) }
        }
    }

    public func owner(of subscription: SubscriptionKey) throws(StoreError) -> String? {
        try read { c throws(StoreError) in try Ownerships.owner(subscription, c) }
    }

    public func ingest(_ batch: IngestBatch, policy: OwnershipPolicy, merge: FactMerge) throws(StoreError) -> IngestResult {
        try write { c throws(StoreError) in
            if let accountId = batch.accountId, try Ownerships.accountExists(accountId, c) == false {
                throw .notFound("account \(accountId)")
            }
            for incoming in batch.transactions {
                let stored = try FactRows.transaction(incoming.key, c)
                try FactRows.save(stored.map { merge.transaction($0, incoming) } ?? incoming, c)
            }
            for incoming in batch.renewalInfos {
                let stored = try FactRows.renewalInfo(incoming.subscriptionKey, c)
                try FactRows.save(stored.map { merge.renewalInfo($0, incoming) } ?? incoming, c)
            }
            var result = IngestResult(owners: [:], previousOwners: [])
            let bound = Set(batch.transactions.map(\.subscriptionKey))
            for key in bound.sorted() {
                let binding = try Ownerships.bind(key, to: batch.accountId, policy: policy, at: batch.at, c)
                result.owners[key] = binding.owner
                if let previous = binding.previousOwner { result.previousOwners.insert(previous) }
                if let receipt = batch.receiptData {
                    try c.run("""
                        INSERT OR REPLACE INTO receipts (environment, original_transaction_id, receipt_data, updated_at)
                        VALUES (?, ?, ?, ?)
                        """, [.text(key.environment.rawValue), .text(key.originalTransactionId), .text(receipt),
                              .integer(batch.at.millisecondsSinceEpoch)])
                }
            }
            for key in Set(batch.renewalInfos.map(\.subscriptionKey)).subtracting(bound) {
                result.owners[key] = try Ownerships.owner(key, c)
            }
            return result
        }
    }

    public func latestReceipt(for subscription: SubscriptionKey) throws(StoreError) -> StoredReceipt? {
        try read { c throws(StoreError) in
            try c.queryFirst("""
                SELECT r.receipt_data, o.account_id, r.updated_at FROM receipts r
                LEFT JOIN owners o ON o.environment = r.environment AND o.original_transaction_id = r.original_transaction_id
                WHERE r.environment = ? AND r.original_transaction_id = ?
                """, [.text(subscription.environment.rawValue), .text(subscription.originalTransactionId)]) {
                StoredReceipt(subscription: subscription, receiptData: $0.text(0), accountId: $0.optionalText(1),
                              updatedAt: Instant(millisecondsSinceEpoch: $0.int64(2)))
            }
        }
    }

    public func subscriptionsToPoll(expiringBefore before: Instant, notBefore: Instant, limit: Int)
        throws(StoreError) -> [PollTarget] {
        try read { c throws(StoreError) in
            try c.query("""
                SELECT s.environment, s.original_transaction_id, s.latest, COALESCE(r.is_in_billing_retry, 0),
                       o.account_id, rc.receipt_data
                FROM (SELECT environment, original_transaction_id, MAX(expires_date) AS latest FROM transactions
                      GROUP BY environment, original_transaction_id) s
                LEFT JOIN renewal_infos r ON r.environment = s.environment AND r.original_transaction_id = s.original_transaction_id
                LEFT JOIN owners o ON o.environment = s.environment AND o.original_transaction_id = s.original_transaction_id
                LEFT JOIN receipts rc ON rc.environment = s.environment AND rc.original_transaction_id = s.original_transaction_id
                WHERE (s.latest >= ? AND s.latest < ?) OR r.is_in_billing_retry = 1
                ORDER BY s.latest, s.environment, s.original_transaction_id LIMIT ?
                """, [.integer(notBefore.millisecondsSinceEpoch), .integer(before.millisecondsSinceEpoch),
                      .optional(max(0, limit))]) { row throws(StoreError) in
                guard let environment = AppStoreEnvironment(rawValue: row.text(0)) else {
                    throw .io("subscription \(row.text(1)): unknown environment")
                }
                return PollTarget(
                    subscription: SubscriptionKey(environment: environment, originalTransactionId: row.text(1)),
                    accountId: row.optionalText(4),
                    latestExpiresDate: row.optionalInt64(2).map(Instant.init(millisecondsSinceEpoch:)),
                    isInBillingRetry: row.bool(3), receiptData: row.optionalText(5))
            }
        }
    }

    public func markNotificationProcessed(_ uuid: String, at instant: Instant) throws(StoreError) -> Bool {
        try write { c throws(StoreError) in
            try c.run("INSERT OR IGNORE INTO processed_notifications (uuid, processed_at) VALUES (?, ?)",
                      [.text(uuid), .integer(instant.millisecondsSinceEpoch)]) == 1
        }
    }
}

import Entitle
import GatewayStore
import Wire

/// Mapping between App Store facts (transactions, renewal info) and their rows.
enum FactRows {
    static func key(_ subscription: SubscriptionKey) -> [SQLValue] {
        [.text(subscription.environment.rawValue), .text(subscription.originalTransactionId)]
    }
}

/// Transactions and renewal infos, keyed as E1 identifies them.
extension SQLiteReading {
    func transactions(ofAccount accountId: String) throws(StoreError) -> [Transaction] {
        try connection.query(RecordRows.transactionColumns + """
             JOIN owners o ON o.environment = t.environment AND o.original_transaction_id = t.original_transaction_id
             WHERE o.account_id = ? ORDER BY t.environment, t.original_transaction_id, t.purchase_date, t.transaction_id
            """, [.text(accountId)]) { row throws(StoreError) in try RecordRows.transaction(row) }
    }

    func renewalInfos(ofAccount accountId: String) throws(StoreError) -> [RenewalInfo] {
        try connection.query(RecordRows.renewalColumns + """
             JOIN owners o ON o.environment = r.environment AND o.original_transaction_id = r.original_transaction_id
             WHERE o.account_id = ? ORDER BY r.environment, r.original_transaction_id
            """, [.text(accountId)]) { row throws(StoreError) in try RecordRows.renewalInfo(row) }
    }

    func transactions(of subscription: SubscriptionKey) throws(StoreError) -> [Transaction] {
        try connection.query(RecordRows.transactionColumns + """
             WHERE t.environment = ? AND t.original_transaction_id = ? ORDER BY t.purchase_date, t.transaction_id
            """, FactRows.key(subscription)) { row throws(StoreError) in try RecordRows.transaction(row) }
    }

    func transaction(_ key: TransactionKey) throws(StoreError) -> Transaction? {
        try connection.queryFirst(RecordRows.transactionColumns + " WHERE t.environment = ? AND t.transaction_id = ?",
                                  [.text(key.environment.rawValue), .text(key.transactionId)]) {
            row throws(StoreError) in try RecordRows.transaction(row)
        }
    }

    func renewalInfo(_ key: SubscriptionKey) throws(StoreError) -> RenewalInfo? {
        try connection.queryFirst(RecordRows.renewalColumns + " WHERE r.environment = ? AND r.original_transaction_id = ?",
                                  FactRows.key(key)) {
            row throws(StoreError) in try RecordRows.renewalInfo(row)
        }
    }
}

extension SQLiteWriteTransaction {
    func save(_ t: Transaction) throws(StoreError) {
        try connection.run("""
            INSERT OR REPLACE INTO transactions (environment, transaction_id, original_transaction_id, product_id,
                purchase_date, original_purchase_date, expires_date, revocation_date, revocation_reason,
                is_upgraded, offer, ownership, web_order_line_item_id, subscription_group, app_account_token,
                source, observed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(t.environment.rawValue), .text(t.transactionId), .text(t.originalTransactionId),
                  .text(t.productId), .integer(t.purchaseDate.millisecondsSinceEpoch),
                  .optional(t.originalPurchaseDate?.millisecondsSinceEpoch),
                  .optional(t.expiresDate?.millisecondsSinceEpoch), .optional(t.revocationDate?.millisecondsSinceEpoch),
                  .optional(t.revocationReason), .bool(t.isUpgraded), .optional(t.offer?.rawValue),
                  .text(t.ownership.rawValue), .optional(t.webOrderLineItemId), .optional(t.subscriptionGroup),
                  .optional(t.appAccountToken), .text(t.source.rawValue),
                  .optional(t.observedAt?.millisecondsSinceEpoch)])
    }

    func save(_ r: RenewalInfo) throws(StoreError) {
        try connection.run("""
            INSERT OR REPLACE INTO renewal_infos (environment, original_transaction_id, product_id,
                auto_renew_status, auto_renew_product_id, expiration_intent, is_in_billing_retry,
                grace_period_expires_date, price_consent_status, source, observed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(r.environment.rawValue), .text(r.originalTransactionId), .optional(r.productId),
                  .bool(r.autoRenewStatus), .optional(r.autoRenewProductId), .optional(r.expirationIntent?.rawValue),
                  .bool(r.isInBillingRetry), .optional(r.gracePeriodExpiresDate?.millisecondsSinceEpoch),
                  .optional(r.priceConsentStatus), .text(r.source.rawValue),
                  .optional(r.observedAt?.millisecondsSinceEpoch)])
    }
}

import Entitle
import GatewayStore
import Wire

/// Mapping between App Store facts (transactions, renewal info) and their rows. Saving is an
/// upsert (`ON CONFLICT … DO UPDATE`) by the identity E1 gives each fact: ingesting the same fact
/// twice, from any process, stores it once.
enum FactRows {
    static func key(_ subscription: SubscriptionKey) -> [PGValue] {
        [.text(subscription.environment.rawValue), .text(subscription.originalTransactionId)]
    }
}

/// Transactions and renewal infos, keyed as E1 identifies them.
extension PostgresReading {
    func transactions(ofAccount accountId: String) throws(StoreError) -> [Transaction] {
        try connection.query(RecordRows.transactionColumns + """
             JOIN owners o ON o.environment = t.environment AND o.original_transaction_id = t.original_transaction_id
             WHERE o.account_id = $1 ORDER BY t.environment, t.original_transaction_id, t.purchase_date, t.transaction_id
            """, [.text(accountId)]) { row throws(StoreError) in try RecordRows.transaction(row) }
    }

    func renewalInfos(ofAccount accountId: String) throws(StoreError) -> [RenewalInfo] {
        try connection.query(RecordRows.renewalColumns + """
             JOIN owners o ON o.environment = r.environment AND o.original_transaction_id = r.original_transaction_id
             WHERE o.account_id = $1 ORDER BY r.environment, r.original_transaction_id
            """, [.text(accountId)]) { row throws(StoreError) in try RecordRows.renewalInfo(row) }
    }

    func transactions(of subscription: SubscriptionKey) throws(StoreError) -> [Transaction] {
        try connection.query(RecordRows.transactionColumns + """
             WHERE t.environment = $1 AND t.original_transaction_id = $2 ORDER BY t.purchase_date, t.transaction_id
            """, FactRows.key(subscription)) { row throws(StoreError) in try RecordRows.transaction(row) }
    }

    func transaction(_ key: TransactionKey) throws(StoreError) -> Transaction? {
        try connection.queryFirst(RecordRows.transactionColumns + " WHERE t.environment = $1 AND t.transaction_id = $2",
                                  [.text(key.environment.rawValue), .text(key.transactionId)]) {
            row throws(StoreError) in try RecordRows.transaction(row)
        }
    }

    func renewalInfo(_ key: SubscriptionKey) throws(StoreError) -> RenewalInfo? {
        try connection.queryFirst(RecordRows.renewalColumns + " WHERE r.environment = $1 AND r.original_transaction_id = $2",
                                  FactRows.key(key)) {
            row throws(StoreError) in try RecordRows.renewalInfo(row)
        }
    }
}

extension PostgresWriteTransaction {
    func save(_ t: Transaction) throws(StoreError) {
        try connection.run("""
            INSERT INTO transactions (environment, transaction_id, original_transaction_id, product_id,
                purchase_date, original_purchase_date, expires_date, revocation_date, revocation_reason,
                is_upgraded, offer, ownership, web_order_line_item_id, subscription_group, app_account_token,
                source, observed_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
            ON CONFLICT (environment, transaction_id) DO UPDATE SET
                original_transaction_id = excluded.original_transaction_id, product_id = excluded.product_id,
                purchase_date = excluded.purchase_date, original_purchase_date = excluded.original_purchase_date,
                expires_date = excluded.expires_date, revocation_date = excluded.revocation_date,
                revocation_reason = excluded.revocation_reason, is_upgraded = excluded.is_upgraded,
                offer = excluded.offer, ownership = excluded.ownership,
                web_order_line_item_id = excluded.web_order_line_item_id,
                subscription_group = excluded.subscription_group, app_account_token = excluded.app_account_token,
                source = excluded.source, observed_at = excluded.observed_at
            """, [.text(t.environment.rawValue), .text(t.transactionId), .text(t.originalTransactionId),
                  .text(t.productId), .instant(t.purchaseDate), .optional(t.originalPurchaseDate),
                  .optional(t.expiresDate), .optional(t.revocationDate), .optional(t.revocationReason),
                  .boolean(t.isUpgraded), .optional(t.offer?.rawValue), .text(t.ownership.rawValue),
                  .optional(t.webOrderLineItemId), .optional(t.subscriptionGroup), .optional(t.appAccountToken),
                  .text(t.source.rawValue), .optional(t.observedAt)])
    }

    func save(_ r: RenewalInfo) throws(StoreError) {
        try connection.run("""
            INSERT INTO renewal_infos (environment, original_transaction_id, product_id,
                auto_renew_status, auto_renew_product_id, expiration_intent, is_in_billing_retry,
                grace_period_expires_date, price_consent_status, source, observed_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
            ON CONFLICT (environment, original_transaction_id) DO UPDATE SET
                product_id = excluded.product_id, auto_renew_status = excluded.auto_renew_status,
                auto_renew_product_id = excluded.auto_renew_product_id,
                expiration_intent = excluded.expiration_intent, is_in_billing_retry = excluded.is_in_billing_retry,
                grace_period_expires_date = excluded.grace_period_expires_date,
                price_consent_status = excluded.price_consent_status, source = excluded.source,
                observed_at = excluded.observed_at
            """, [.text(r.environment.rawValue), .text(r.originalTransactionId), .optional(r.productId),
                  .boolean(r.autoRenewStatus), .optional(r.autoRenewProductId), .optional(r.expirationIntent?.rawValue),
                  .boolean(r.isInBillingRetry), .optional(r.gracePeriodExpiresDate),
                  .optional(r.priceConsentStatus), .text(r.source.rawValue), .optional(r.observedAt)])
    }
}

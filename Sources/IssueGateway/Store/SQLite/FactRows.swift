import IssueCatalog
import Entitle
import Wire

/// Mapping between App Store facts (transactions, renewal info) and their rows.
enum FactRows {
    static let transactionColumns = """
        SELECT t.environment, t.transaction_id, t.original_transaction_id, t.product_id, t.purchase_date,
               t.original_purchase_date, t.expires_date, t.revocation_date, t.revocation_reason, t.is_upgraded,
               t.offer, t.ownership, t.web_order_line_item_id, t.subscription_group, t.app_account_token,
               t.source, t.observed_at FROM transactions t
        """

    static let renewalColumns = """
        SELECT r.environment, r.original_transaction_id, r.product_id, r.auto_renew_status,
               r.auto_renew_product_id, r.expiration_intent, r.is_in_billing_retry,
               r.grace_period_expires_date, r.price_consent_status, r.source, r.observed_at
        FROM renewal_infos r
        """

    static func transaction(_ key: TransactionKey, _ c: SQLiteConnection) throws(StoreError) -> Transaction? {
        try c.queryFirst(transactionColumns + " WHERE t.environment = ? AND t.transaction_id = ?",
                         [.text(key.environment.rawValue), .text(key.transactionId)]) {
            row throws(StoreError) in try transaction(row)
        }
    }

    static func renewalInfo(_ key: SubscriptionKey, _ c: SQLiteConnection) throws(StoreError) -> RenewalInfo? {
        try c.queryFirst(renewalColumns + " WHERE r.environment = ? AND r.original_transaction_id = ?",
                         [.text(key.environment.rawValue), .text(key.originalTransactionId)]) {
            row throws(StoreError) in try renewalInfo(row)
        }
    }

    static func save(_ t: Transaction, _ c: SQLiteConnection) throws(StoreError) {
        try c.run("""
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

    static func save(_ r: RenewalInfo, _ c: SQLiteConnection) throws(StoreError) {
        try c.run("""
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

    static func transaction(_ row: SQLiteRow) throws(StoreError) -> Transaction {
        let id = row.text(1)
        return Transaction(
            environment: try decode(AppStoreEnvironment.self, row.text(0), id),
            transactionId: id, originalTransactionId: row.text(2), productId: row.text(3),
            purchaseDate: instant(row, 4)!, originalPurchaseDate: instant(row, 5), expiresDate: instant(row, 6),
            revocationDate: instant(row, 7), revocationReason: row.optionalInt(8), isUpgraded: row.bool(9),
            offer: try row.optionalText(10).map { (s) throws(StoreError) in try decode(OfferKind.self, s, id) },
            ownership: try decode(Ownership.self, row.text(11), id), webOrderLineItemId: row.optionalText(12),
            subscriptionGroup: row.optionalText(13), appAccountToken: row.optionalText(14),
            source: try decode(TransactionSource.self, row.text(15), id), observedAt: instant(row, 16))
    }

    static func renewalInfo(_ row: SQLiteRow) throws(StoreError) -> RenewalInfo {
        let id = row.text(1)
        var intent: ExpirationIntent?
        if let raw = row.optionalInt(5) {
            guard let parsed = ExpirationIntent(rawValue: raw) else { throw .io("renewal info \(id): bad intent") }
            intent = parsed
        }
        return RenewalInfo(
            environment: try decode(AppStoreEnvironment.self, row.text(0), id), originalTransactionId: id,
            productId: row.optionalText(2), autoRenewStatus: row.bool(3), autoRenewProductId: row.optionalText(4),
            expirationIntent: intent, isInBillingRetry: row.bool(6), gracePeriodExpiresDate: instant(row, 7),
            priceConsentStatus: row.optionalInt(8), source: try decode(TransactionSource.self, row.text(9), id),
            observedAt: instant(row, 10))
    }

    private static func instant(_ row: SQLiteRow, _ column: Int32) -> Instant? {
        row.optionalInt64(column).map(Instant.init(millisecondsSinceEpoch:))
    }

    private static func decode<T: RawRepresentable<String>>(_ type: T.Type, _ raw: String, _ id: String)
        throws(StoreError) -> T {
        guard let value = T(rawValue: raw) else { throw .io("row \(id): unknown \(T.self) \(raw)") }
        return value
    }
}

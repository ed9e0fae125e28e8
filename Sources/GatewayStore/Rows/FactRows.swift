import Entitle
import Wire

/// App Store facts (transactions, renewal infos), keyed as E1 identifies them. Saving is an
/// upsert (`ON CONFLICT … DO UPDATE`) by that identity: ingesting the same fact twice, from any
/// process, stores it once.
extension RecordRows {
    public static let transactionColumns: SQL = """
        SELECT t.environment, t.transaction_id, t.original_transaction_id, t.product_id, t.purchase_date,
               t.original_purchase_date, t.expires_date, t.revocation_date, t.revocation_reason, t.is_upgraded,
               t.offer, t.ownership, t.web_order_line_item_id, t.subscription_group, t.app_account_token,
               t.source, t.observed_at FROM transactions t
        """

    public static let renewalColumns: SQL = """
        SELECT r.environment, r.original_transaction_id, r.product_id, r.auto_renew_status,
               r.auto_renew_product_id, r.expiration_intent, r.is_in_billing_retry,
               r.grace_period_expires_date, r.price_consent_status, r.source, r.observed_at
        FROM renewal_infos r
        """

    public static func transaction(_ row: some StoredRow) throws(StoreError) -> Transaction {
        let id = row.text(1)
        return Transaction(
            environment: try row.decode(AppStoreEnvironment.self, 0, of: id),
            transactionId: id, originalTransactionId: row.text(2), productId: row.text(3),
            purchaseDate: row.instant(4), originalPurchaseDate: row.optionalInstant(5),
            expiresDate: row.optionalInstant(6), revocationDate: row.optionalInstant(7),
            revocationReason: row.optionalInt(8), isUpgraded: row.bool(9),
            offer: row.isNull(10) ? nil : try row.decode(OfferKind.self, 10, of: id),
            ownership: try row.decode(Ownership.self, 11, of: id), webOrderLineItemId: row.optionalText(12),
            subscriptionGroup: row.optionalText(13), appAccountToken: row.optionalText(14),
            source: try row.decode(TransactionSource.self, 15, of: id), observedAt: row.optionalInstant(16))
    }

    public static func renewalInfo(_ row: some StoredRow) throws(StoreError) -> RenewalInfo {
        let id = row.text(1)
        var intent: ExpirationIntent?
        if let raw = row.optionalInt(5) {
            guard let parsed = ExpirationIntent(rawValue: raw) else { throw row.corrupt("renewal info \(id): bad intent") }
            intent = parsed
        }
        return RenewalInfo(
            environment: try row.decode(AppStoreEnvironment.self, 0, of: id), originalTransactionId: id,
            productId: row.optionalText(2), autoRenewStatus: row.bool(3), autoRenewProductId: row.optionalText(4),
            expirationIntent: intent, isInBillingRetry: row.bool(6), gracePeriodExpiresDate: row.optionalInstant(7),
            priceConsentStatus: row.optionalInt(8), source: try row.decode(TransactionSource.self, 9, of: id),
            observedAt: row.optionalInstant(10))
    }

    /// A subscription's key columns (`alias` names the table, as `"t."`), for a WHERE clause.
    public static func subscriptionKey(_ subscription: SubscriptionKey, alias: StaticString = "") -> SQL {
        """
        \(literal: alias)environment = \(subscription.environment.rawValue) \
        AND \(literal: alias)original_transaction_id = \(subscription.originalTransactionId)
        """
    }
}

extension SQLReading {
    public func transactions(ofAccount accountId: String) throws(StoreError) -> [Transaction] {
        try connection.query("""
            \(RecordRows.transactionColumns)
            JOIN owners o ON o.environment = t.environment AND o.original_transaction_id = t.original_transaction_id
            WHERE o.account_id = \(accountId) ORDER BY t.environment, t.original_transaction_id, t.purchase_date, t.transaction_id
            """) { row throws(StoreError) in try RecordRows.transaction(row) }
    }

    public func renewalInfos(ofAccount accountId: String) throws(StoreError) -> [RenewalInfo] {
        try connection.query("""
            \(RecordRows.renewalColumns)
            JOIN owners o ON o.environment = r.environment AND o.original_transaction_id = r.original_transaction_id
            WHERE o.account_id = \(accountId) ORDER BY r.environment, r.original_transaction_id
            """) { row throws(StoreError) in try RecordRows.renewalInfo(row) }
    }

    public func transactions(of subscription: SubscriptionKey) throws(StoreError) -> [Transaction] {
        try connection.query("""
            \(RecordRows.transactionColumns) WHERE \(RecordRows.subscriptionKey(subscription, alias: "t."))
            ORDER BY t.purchase_date, t.transaction_id
            """) { row throws(StoreError) in try RecordRows.transaction(row) }
    }

    public func transaction(_ key: TransactionKey) throws(StoreError) -> Transaction? {
        try connection.queryFirst("""
            \(RecordRows.transactionColumns) WHERE t.environment = \(key.environment.rawValue) AND t.transaction_id = \(key.transactionId)
            """) { row throws(StoreError) in try RecordRows.transaction(row) }
    }

    public func renewalInfo(_ key: SubscriptionKey) throws(StoreError) -> RenewalInfo? {
        try connection.queryFirst("\(RecordRows.renewalColumns) WHERE \(RecordRows.subscriptionKey(key, alias: "r."))") {
            row throws(StoreError) in try RecordRows.renewalInfo(row)
        }
    }
}

extension SQLWriteTransaction {
    public func save(_ t: Transaction) throws(StoreError) {
        try connection.run("""
            INSERT INTO transactions (environment, transaction_id, original_transaction_id, product_id,
                purchase_date, original_purchase_date, expires_date, revocation_date, revocation_reason,
                is_upgraded, offer, ownership, web_order_line_item_id, subscription_group, app_account_token,
                source, observed_at)
            VALUES (\(t.environment.rawValue), \(t.transactionId), \(t.originalTransactionId), \(t.productId),
                \(t.purchaseDate), \(t.originalPurchaseDate), \(t.expiresDate), \(t.revocationDate), \(t.revocationReason),
                \(t.isUpgraded), \(t.offer?.rawValue), \(t.ownership.rawValue), \(t.webOrderLineItemId),
                \(t.subscriptionGroup), \(t.appAccountToken), \(t.source.rawValue), \(t.observedAt))
            ON CONFLICT (environment, transaction_id) DO UPDATE SET
                original_transaction_id = excluded.original_transaction_id, product_id = excluded.product_id,
                purchase_date = excluded.purchase_date, original_purchase_date = excluded.original_purchase_date,
                expires_date = excluded.expires_date, revocation_date = excluded.revocation_date,
                revocation_reason = excluded.revocation_reason, is_upgraded = excluded.is_upgraded,
                offer = excluded.offer, ownership = excluded.ownership,
                web_order_line_item_id = excluded.web_order_line_item_id,
                subscription_group = excluded.subscription_group, app_account_token = excluded.app_account_token,
                source = excluded.source, observed_at = excluded.observed_at
            """)
    }

    public func save(_ r: RenewalInfo) throws(StoreError) {
        try connection.run("""
            INSERT INTO renewal_infos (environment, original_transaction_id, product_id,
                auto_renew_status, auto_renew_product_id, expiration_intent, is_in_billing_retry,
                grace_period_expires_date, price_consent_status, source, observed_at)
            VALUES (\(r.environment.rawValue), \(r.originalTransactionId), \(r.productId), \(r.autoRenewStatus),
                \(r.autoRenewProductId), \(r.expirationIntent?.rawValue), \(r.isInBillingRetry),
                \(r.gracePeriodExpiresDate), \(r.priceConsentStatus), \(r.source.rawValue), \(r.observedAt))
            ON CONFLICT (environment, original_transaction_id) DO UPDATE SET
                product_id = excluded.product_id, auto_renew_status = excluded.auto_renew_status,
                auto_renew_product_id = excluded.auto_renew_product_id,
                expiration_intent = excluded.expiration_intent, is_in_billing_retry = excluded.is_in_billing_retry,
                grace_period_expires_date = excluded.grace_period_expires_date,
                price_consent_status = excluded.price_consent_status, source = excluded.source,
                observed_at = excluded.observed_at
            """)
    }
}

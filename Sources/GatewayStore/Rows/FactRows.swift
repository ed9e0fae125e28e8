import Entitle
import IssueCatalog
import Wire

/// Store facts (transactions, renewal infos), keyed as E1 identifies them. Saving is an
/// upsert (`ON CONFLICT … DO UPDATE`) by that identity: ingesting the same fact twice, from any
/// process, stores it once.
extension RecordRows {
    public static let transactionColumns: SQL = """
        SELECT t.environment, t.transaction_id, t.original_transaction_id, t.product_id, t.purchase_date,
               t.original_purchase_date, t.expires_date, t.revocation_date, t.revocation_reason, t.is_upgraded,
               t.offer, t.ownership, t.web_order_line_item_id, t.subscription_group, t.app_account_token,
               t.source, t.observed_at, t.store, t.revocation_type, t.revocation_percentage, t.app_transaction_id,
               t.offer_period, t.period_built FROM transactions t
        """

    public static let renewalColumns: SQL = """
        SELECT r.environment, r.original_transaction_id, r.product_id, r.auto_renew_status,
               r.auto_renew_product_id, r.expiration_intent, r.is_in_billing_retry,
               r.grace_period_expires_date, r.price_consent_status, r.source, r.observed_at, r.store,
               r.paused_at, r.resumes_at, r.app_transaction_id, r.offer_period
        FROM renewal_infos r
        """

    public static func transaction(_ row: some StoredRow) throws(StoreError) -> Transaction {
        let id = row.text(1)
        return Transaction(
            store: try row.decode(Store.self, 17, of: id), environment: try row.decode(StoreEnvironment.self, 0, of: id),
            transactionId: id, originalTransactionId: row.text(2), productId: row.text(3),
            purchaseDate: row.instant(4), originalPurchaseDate: row.optionalInstant(5),
            expiresDate: row.optionalInstant(6), revocationDate: row.optionalInstant(7),
            revocationReason: row.optionalInt(8),
            revocationKind: row.isNull(18) ? nil : try row.decode(RevocationKind.self, 18, of: id),
            revocationPercentage: row.optionalInt(19), isUpgraded: row.bool(9),
            offer: row.isNull(10) ? nil : try row.decode(OfferKind.self, 10, of: id),
            ownership: try row.decode(Ownership.self, 11, of: id), webOrderLineItemId: row.optionalText(12),
            subscriptionGroup: row.optionalText(13), appAccountToken: row.optionalText(14),
            appTransactionId: row.optionalText(20), offerPeriod: try offerPeriod(row, 21, of: id),
            periodBuilt: row.bool(22), source: try row.decode(TransactionSource.self, 15, of: id), observedAt: row.optionalInstant(16))
    }

    /// Apple's `offerPeriod` as stored: an ISO 8601 duration, or the row is corrupt.
    private static func offerPeriod(_ row: some StoredRow, _ column: Int32, of id: String) throws(StoreError) -> ISODuration? {
        guard let text = row.optionalText(column) else { return nil }
        guard let duration = ISODuration(text) else { throw row.corrupt("\(id): bad offer period") }
        return duration
    }

    public static func renewalInfo(_ row: some StoredRow) throws(StoreError) -> RenewalInfo {
        let id = row.text(1)
        var intent: ExpirationIntent?
        if let raw = row.optionalInt(5) {
            guard let parsed = ExpirationIntent(rawValue: raw) else { throw row.corrupt("renewal info \(id): bad intent") }
            intent = parsed
        }
        return RenewalInfo(
            store: try row.decode(Store.self, 11, of: id), environment: try row.decode(StoreEnvironment.self, 0, of: id),
            originalTransactionId: id,
            productId: row.optionalText(2), autoRenewStatus: row.bool(3), autoRenewProductId: row.optionalText(4),
            expirationIntent: intent, isInBillingRetry: row.bool(6), gracePeriodExpiresDate: row.optionalInstant(7),
            priceConsentStatus: row.optionalInt(8), pausedAt: row.optionalInstant(12), resumesAt: row.optionalInstant(13),
            appTransactionId: row.optionalText(14), offerPeriod: try offerPeriod(row, 15, of: id),
            source: try row.decode(TransactionSource.self, 9, of: id),
            observedAt: row.optionalInstant(10))
    }

    /// A subscription's key columns (E1, E23) with their values, for `SQL.upsert`.
    public static func subscriptionColumns(_ subscription: SubscriptionKey) -> KeyValuePairs<StaticString, any SQLBindable> {
        ["store": subscription.store.rawValue, "environment": subscription.environment.rawValue,
         "original_transaction_id": subscription.originalTransactionId]
    }

    /// A subscription's key columns (`alias` names the table, as `"t."`), for a WHERE clause.
    public static func subscriptionKey(_ subscription: SubscriptionKey, alias: StaticString = "") -> SQL {
        """
        \(literal: alias)store = \(subscription.store.rawValue) \
        AND \(literal: alias)environment = \(subscription.environment.rawValue) \
        AND \(literal: alias)original_transaction_id = \(subscription.originalTransactionId)
        """
    }

    /// Two tables' rows (by alias, as `"o"` and `"t"`) about the same subscription, for a join.
    public static func sameSubscription(_ a: StaticString, _ b: StaticString) -> SQL {
        """
        \(literal: a).store = \(literal: b).store AND \(literal: a).environment = \(literal: b).environment \
        AND \(literal: a).original_transaction_id = \(literal: b).original_transaction_id
        """
    }
}

extension SQLReading {
    /// The subscriptions in the order of `owners_by_account` (unique, so the join needs no sort on
    /// either backend: decision 113), then each subscription's rows by purchase date and id in
    /// Swift (`inSubscriptionOrder`): a sort of the joined wide rows in SQL cost half the query.
    public func transactions(ofAccount accountId: String) throws(StoreError) -> [Transaction] {
        try RecordRows.inSubscriptionOrder(connection.query("""
            \(RecordRows.transactionColumns)
            JOIN owners o ON \(RecordRows.sameSubscription("o", "t"))
            WHERE o.account_id = \(accountId)
            ORDER BY o.environment, o.store, o.original_transaction_id
            """) { row throws(StoreError) in try RecordRows.transaction(row) })
    }

    /// In the order of `owners_by_account`, which the join keeps: no sort (decision 113).
    public func renewalInfos(ofAccount accountId: String) throws(StoreError) -> [RenewalInfo] {
        try connection.query("""
            \(RecordRows.renewalColumns)
            JOIN owners o ON \(RecordRows.sameSubscription("o", "r"))
            WHERE o.account_id = \(accountId) ORDER BY o.environment, o.store, o.original_transaction_id
            """) { row throws(StoreError) in try RecordRows.renewalInfo(row) }
    }

    public func transactions(of subscription: SubscriptionKey) throws(StoreError) -> [Transaction] {
        try connection.query("""
            \(RecordRows.transactionColumns)
            WHERE \(RecordRows.subscriptionKey(subscription, alias: "t."))
            ORDER BY t.purchase_date, t.transaction_id
            """) { row throws(StoreError) in try RecordRows.transaction(row) }
    }

    public func transaction(_ key: TransactionKey) throws(StoreError) -> Transaction? {
        try connection.queryFirst("""
            \(RecordRows.transactionColumns)
            WHERE t.store = \(key.store.rawValue) AND t.environment = \(key.environment.rawValue)
              AND t.transaction_id = \(key.transactionId)
            """) { row throws(StoreError) in try RecordRows.transaction(row) }
    }

    /// Ids from `invoiceId/` up to `invoiceId0` (`0` follows `/`): a range the primary key's index
    /// answers, where LIKE would read `_` as a wildcard.
    public func transactions(stripeInvoice invoiceId: String, environment: StoreEnvironment) throws(StoreError) -> [Transaction] {
        try connection.query("""
            \(RecordRows.transactionColumns)
            WHERE t.store = \(Store.stripe.rawValue) AND t.environment = \(environment.rawValue)
              AND t.transaction_id >= \(invoiceId + "/") AND t.transaction_id < \(invoiceId + "0")
            ORDER BY t.transaction_id
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
        try connection.run(.upsert(
            into: "transactions",
            key: ["store": t.store.rawValue, "environment": t.environment.rawValue, "transaction_id": t.transactionId],
            set: ["original_transaction_id": t.originalTransactionId, "product_id": t.productId,
                  "purchase_date": t.purchaseDate, "original_purchase_date": t.originalPurchaseDate,
                  "expires_date": t.expiresDate, "revocation_date": t.revocationDate,
                  "revocation_reason": t.revocationReason, "revocation_type": t.revocationKind?.rawValue,
                  "revocation_percentage": t.revocationPercentage, "is_upgraded": t.isUpgraded, "offer": t.offer?.rawValue,
                  "ownership": t.ownership.rawValue, "web_order_line_item_id": t.webOrderLineItemId,
                  "subscription_group": t.subscriptionGroup, "app_account_token": t.appAccountToken,
                  "app_transaction_id": t.appTransactionId, "offer_period": t.offerPeriod?.description,
                  "period_built": t.periodBuilt, "source": t.source.rawValue, "observed_at": t.observedAt]))
    }

    public func save(_ r: RenewalInfo) throws(StoreError) {
        try connection.run(.upsert(
            into: "renewal_infos", key: RecordRows.subscriptionColumns(r.subscriptionKey),
            set: ["product_id": r.productId, "auto_renew_status": r.autoRenewStatus,
                  "auto_renew_product_id": r.autoRenewProductId, "expiration_intent": r.expirationIntent?.rawValue,
                  "is_in_billing_retry": r.isInBillingRetry, "grace_period_expires_date": r.gracePeriodExpiresDate,
                  "price_consent_status": r.priceConsentStatus, "paused_at": r.pausedAt, "resumes_at": r.resumesAt,
                  "app_transaction_id": r.appTransactionId, "offer_period": r.offerPeriod?.description,
                  "source": r.source.rawValue, "observed_at": r.observedAt]))
    }
}

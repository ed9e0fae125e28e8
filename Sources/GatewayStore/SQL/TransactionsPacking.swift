import Entitle
import IssueCatalog
import Wire

/// The conversion of `transactions`, one row a transaction as released up to this step, into one
/// `subscription_facts` row a subscription (`PackedTransactions`, decision 118): read a batch of
/// subscriptions at a time, in the order of `transactions_by_subscription`, so memory stays bounded
/// on any database. Part of a released step: never change what it reads.
enum TransactionsPacking {
    static let subscriptionsPerBatch = 1_000

    static func run<C: SQLConnection>(on connection: C) throws(StoreError) {
        let tx = SQLWriteTransaction(connection: connection)
        var after: SubscriptionKey?
        while true {
            let keys = try connection.query("""
                SELECT DISTINCT t.store, t.environment, t.original_transaction_id FROM transactions t
                WHERE \(beyond(after)) ORDER BY t.store, t.environment, t.original_transaction_id
                LIMIT \(subscriptionsPerBatch)
                """) { row throws(StoreError) in try subscription(row) }
            guard let last = keys.last else { return }
            var batch: [SubscriptionKey: [Transaction]] = [:]
            for transaction in try connection.query("""
                \(releasedColumns) WHERE \(beyond(after))
                  AND (t.store, t.environment, t.original_transaction_id)
                      <= (\(last.store.rawValue), \(last.environment.rawValue), \(last.originalTransactionId))
                """, releasedTransaction) {
                batch[transaction.subscriptionKey, default: []].append(transaction)
            }
            for (key, transactions) in batch { try tx.saveSubscriptionFacts(key, transactions) }
            after = last
        }
    }

    /// Rows of subscriptions after `key` in the index's order (all of them for nil).
    private static func beyond(_ key: SubscriptionKey?) -> SQL {
        guard let key else { return "TRUE" }
        return """
            (t.store, t.environment, t.original_transaction_id)
                > (\(key.store.rawValue), \(key.environment.rawValue), \(key.originalTransactionId))
            """
    }

    private static func subscription(_ row: some StoredRow) throws(StoreError) -> SubscriptionKey {
        let id = row.text(2)
        return SubscriptionKey(store: try row.decode(Store.self, 0, of: id),
                               environment: try row.decode(StoreEnvironment.self, 1, of: id), originalTransactionId: id)
    }

    /// The released table's columns, every one a `Transaction` field.
    private static let releasedColumns: SQL = """
        SELECT t.environment, t.transaction_id, t.original_transaction_id, t.product_id, t.purchase_date,
               t.original_purchase_date, t.expires_date, t.revocation_date, t.revocation_reason, t.is_upgraded,
               t.offer, t.ownership, t.web_order_line_item_id, t.subscription_group, t.app_account_token,
               t.source, t.observed_at, t.store, t.revocation_type, t.revocation_percentage, t.app_transaction_id,
               t.offer_period, t.period_built FROM transactions t
        """

    private static func releasedTransaction(_ row: some StoredRow) throws(StoreError) -> Transaction {
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
            appTransactionId: row.optionalText(20), offerPeriod: try RecordRows.offerPeriod(row, 21, of: id),
            periodBuilt: row.bool(22), source: try row.decode(TransactionSource.self, 15, of: id),
            observedAt: row.optionalInstant(16))
    }
}

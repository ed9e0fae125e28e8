import Entitle
import IssueCatalog
import Wire

/// Store facts (transactions, renewal infos), keyed as E1 identifies them. A subscription's
/// transactions are one row of `subscription_facts` (`PackedTransactions`, decision 118), found
/// by transaction through `transaction_keys`; saving is a read, merge and upsert of that row by
/// E1's identity, so ingesting the same fact twice, from any process, stores it once.
extension RecordRows {
    /// A subscription's row: its key, then its packed transactions (`subscriptionTransactions`).
    public static let subscriptionFactsColumns: SQL = """
        SELECT s.store, s.environment, s.original_transaction_id, s.facts FROM subscription_facts s
        """

    public static let renewalColumns: SQL = """
        SELECT r.environment, r.original_transaction_id, r.product_id, r.auto_renew_status,
               r.auto_renew_product_id, r.expiration_intent, r.is_in_billing_retry,
               r.grace_period_expires_date, r.price_consent_status, r.source, r.observed_at, r.store,
               r.paused_at, r.resumes_at, r.app_transaction_id, r.offer_period
        FROM renewal_infos r
        """

    /// The transactions of a `subscriptionFactsColumns` row (store, environment, original
    /// transaction id, packed facts), in purchase order.
    public static func subscriptionTransactions(_ row: some StoredRow) throws(StoreError) -> [Transaction] {
        let id = row.text(2)
        let key = SubscriptionKey(store: try row.decode(Store.self, 0, of: id),
                                  environment: try row.decode(StoreEnvironment.self, 1, of: id),
                                  originalTransactionId: id)
        do throws(PackingError) {
            return try PackedTransactions.unpack(row.bytes(3), of: key)
        } catch {
            throw row.corrupt("subscription \(id): \(error.detail)")
        }
    }

    /// Apple's `offerPeriod` as stored: an ISO 8601 duration, or the row is corrupt.
    static func offerPeriod(_ row: some StoredRow, _ column: Int32, of id: String) throws(StoreError) -> ISODuration? {
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
    /// either backend: decision 113), each one's transactions in purchase order as stored.
    public func transactions(ofAccount accountId: String) throws(StoreError) -> [Transaction] {
        try connection.query("""
            \(RecordRows.subscriptionFactsColumns)
            JOIN owners o ON \(RecordRows.sameSubscription("o", "s"))
            WHERE o.account_id = \(accountId)
            ORDER BY o.environment, o.store, o.original_transaction_id
            """) { row throws(StoreError) in try RecordRows.subscriptionTransactions(row) }.flatMap { $0 }
    }

    /// In the order of `owners_by_account`, which the join keeps: no sort (decision 113).
    public func renewalInfos(ofAccount accountId: String) throws(StoreError) -> [RenewalInfo] {
        try connection.query("""
            \(RecordRows.renewalColumns)
            JOIN owners o ON \(RecordRows.sameSubscription("o", "r"))
            WHERE o.account_id = \(accountId) ORDER BY o.environment, o.store, o.original_transaction_id
            """) { row throws(StoreError) in try RecordRows.renewalInfo(row) }
    }

    /// In purchase date order, then id compared byte-wise (`PackedTransactions.inOrder`).
    public func transactions(of subscription: SubscriptionKey) throws(StoreError) -> [Transaction] {
        try connection.queryFirst("""
            \(RecordRows.subscriptionFactsColumns) WHERE \(RecordRows.subscriptionKey(subscription, alias: "s."))
            """) { row throws(StoreError) in try RecordRows.subscriptionTransactions(row) } ?? []
    }

    /// The subscription's key is a scalar subquery, not a join: a join leaves the order to the
    /// planner, and PostgreSQL's statistics of a young table (rows estimated 1) made it walk every
    /// subscription of the store and probe the key for each, 2 ms a call at 1,000 subscriptions.
    /// This form is one key lookup, then one subscription, whatever the statistics (decision 126).
    public func transaction(_ key: TransactionKey) throws(StoreError) -> Transaction? {
        try connection.queryFirst("""
            \(RecordRows.subscriptionFactsColumns)
            WHERE s.store = \(key.store.rawValue) AND s.environment = \(key.environment.rawValue)
              AND s.original_transaction_id = (
                SELECT k.original_transaction_id FROM transaction_keys k
                WHERE k.store = \(key.store.rawValue) AND k.environment = \(key.environment.rawValue)
                  AND k.transaction_id = \(key.transactionId))
            """) { row throws(StoreError) in try RecordRows.subscriptionTransactions(row) }?
            .first { $0.transactionId == key.transactionId }
    }

    /// One key lookup, then one subscription, as `transaction(_:)`; the key's subscription if it
    /// has one, else `subscription`. Both of one store and environment, as a transaction's are.
    public func subscription(holding key: TransactionKey, else subscription: SubscriptionKey)
        throws(StoreError) -> (key: SubscriptionKey, transactions: [Transaction])? {
        precondition(key.store == subscription.store && key.environment == subscription.environment)
        return try connection.queryFirst("""
            \(RecordRows.subscriptionFactsColumns)
            WHERE s.store = \(subscription.store.rawValue) AND s.environment = \(subscription.environment.rawValue)
              AND s.original_transaction_id = COALESCE((
                SELECT k.original_transaction_id FROM transaction_keys k
                WHERE k.store = \(key.store.rawValue) AND k.environment = \(key.environment.rawValue)
                  AND k.transaction_id = \(key.transactionId)), \(subscription.originalTransactionId))
            """) { row throws(StoreError) in
            (SubscriptionKey(store: subscription.store, environment: subscription.environment, originalTransactionId: row.text(2)),
             try RecordRows.subscriptionTransactions(row))
        }
    }

    /// Ids from `invoiceId/` up to `invoiceId0` (`0` follows `/`): a range of `transaction_keys`'
    /// primary key, where LIKE would read `_` as a wildcard; in id order, compared byte-wise.
    /// The subscriptions are read by key after the range, for the plan's sake as in `transaction(_:)`.
    public func transactions(stripeInvoice invoiceId: String, environment: StoreEnvironment) throws(StoreError) -> [Transaction] {
        let from = invoiceId + "/", to = invoiceId + "0"
        let subscriptions = try connection.query("""
            SELECT DISTINCT original_transaction_id FROM transaction_keys
            WHERE store = \(Store.stripe.rawValue) AND environment = \(environment.rawValue)
              AND transaction_id >= \(from) AND transaction_id < \(to)
            """) { SubscriptionKey(store: .stripe, environment: environment, originalTransactionId: $0.text(0)) }
        var stored: [Transaction] = []
        for key in subscriptions { stored += try transactions(of: key) }
        return stored.filter {
            !$0.transactionId.utf8.lexicographicallyPrecedes(from.utf8) && $0.transactionId.utf8.lexicographicallyPrecedes(to.utf8)
        }.sorted { $0.transactionId.utf8.lexicographicallyPrecedes($1.transactionId.utf8) }
    }

    /// The subscription a stored transaction belongs to (E1's identity), nil when none is stored.
    func storedSubscription(of key: TransactionKey) throws(StoreError) -> SubscriptionKey? {
        try connection.queryFirst("""
            SELECT original_transaction_id FROM transaction_keys
            WHERE store = \(key.store.rawValue) AND environment = \(key.environment.rawValue)
              AND transaction_id = \(key.transactionId)
            """) { SubscriptionKey(store: key.store, environment: key.environment, originalTransactionId: $0.text(0)) }
    }

    public func renewalInfo(_ key: SubscriptionKey) throws(StoreError) -> RenewalInfo? {
        try connection.queryFirst("\(RecordRows.renewalColumns) WHERE \(RecordRows.subscriptionKey(key, alias: "r."))") {
            row throws(StoreError) in try RecordRows.renewalInfo(row)
        }
    }
}

extension SQLWriteTransaction {
    /// E1: each transaction inserted or replacing the stored one of its identity (store,
    /// environment, transaction id), even one stored under another subscription; each
    /// subscription's row read and written once.
    public func save(_ transactions: [Transaction]) throws(StoreError) {
        try save(transactions) { _, t throws(StoreError) in try storedSubscription(of: t.key) }
    }

    public func save(merged: [(old: Transaction?, new: Transaction)], read: [SubscriptionKey: [Transaction]]) throws(StoreError) {
        try save(merged.map(\.new), read: read) { index, _ in merged[index].old?.subscriptionKey }
    }

    /// `storedUnder(i, t)`: the subscription the `i`th transaction is stored under when its turn
    /// comes (after the ones before it in the list), nil when none. `read`: subscriptions'
    /// transactions as stored now, not read again.
    private func save(_ transactions: [Transaction], read: [SubscriptionKey: [Transaction]] = [:],
                      storedUnder: (Int, Transaction) throws(StoreError) -> SubscriptionKey?) throws(StoreError) {
        var rows: [SubscriptionKey: [String: Transaction]] = [:]
        func load(_ key: SubscriptionKey) throws(StoreError) {
            guard rows[key] == nil else { return }
            var row: [String: Transaction] = [:]
            let stored: [Transaction]
            if let known = read[key] { stored = known } else { stored = try self.transactions(of: key) }
            for t in stored { row[t.transactionId] = t }
            rows[key] = row
        }
        for (index, t) in transactions.enumerated() {
            let stored = try storedUnder(index, t)
            if let stored, stored != t.subscriptionKey {
                try load(stored)
                rows[stored]?[t.transactionId] = nil
            }
            try load(t.subscriptionKey)
            rows[t.subscriptionKey]?[t.transactionId] = t
            if stored != t.subscriptionKey {
                try connection.runLater(.upsert(
                    into: "transaction_keys",
                    key: ["store": t.store.rawValue, "environment": t.environment.rawValue, "transaction_id": t.transactionId],
                    set: ["original_transaction_id": t.originalTransactionId]))
            }
        }
        for (key, row) in rows { try saveSubscriptionFacts(key, Array(row.values)) }
    }

    public func save(_ t: Transaction) throws(StoreError) { try save([t]) }

    /// A subscription's row made `transactions`, or removed when there are none.
    func saveSubscriptionFacts(_ key: SubscriptionKey, _ transactions: [Transaction]) throws(StoreError) {
        guard !transactions.isEmpty else {
            try connection.runLater("DELETE FROM subscription_facts WHERE \(RecordRows.subscriptionKey(key))")
            return
        }
        try connection.runLater(.upsert(
            into: "subscription_facts", key: RecordRows.subscriptionColumns(key),
            set: ["latest_expires": transactions.lazy.compactMap(\.expiresDate).max(),
                  "product_ids": RecordRows.joinIds(Set(transactions.map(\.productId)).sorted()),
                  "facts": PackedTransactions.pack(transactions)]))
    }

    public func save(_ r: RenewalInfo) throws(StoreError) {
        try connection.runLater(.upsert(
            into: "renewal_infos", key: RecordRows.subscriptionColumns(r.subscriptionKey),
            set: ["product_id": r.productId, "auto_renew_status": r.autoRenewStatus,
                  "auto_renew_product_id": r.autoRenewProductId, "expiration_intent": r.expirationIntent?.rawValue,
                  "is_in_billing_retry": r.isInBillingRetry, "grace_period_expires_date": r.gracePeriodExpiresDate,
                  "price_consent_status": r.priceConsentStatus, "paused_at": r.pausedAt, "resumes_at": r.resumesAt,
                  "app_transaction_id": r.appTransactionId, "offer_period": r.offerPeriod?.description,
                  "source": r.source.rawValue, "observed_at": r.observedAt]))
    }
}

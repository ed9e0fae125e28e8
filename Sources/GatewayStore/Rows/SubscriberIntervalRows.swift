import Entitle
import IssueCatalog
import Wire

/// E37's derived rows (`subscriber_intervals`): each store subscription's paid, trial and grace
/// periods per product, as `SubscriptionIntervals` computes them from the facts. Written again in
/// the unit of work that changes an account's facts (`bumpFactsVersion`), so a series never
/// evaluates accounts; `rebuildSubscriberIntervals` makes them again from the facts.
extension RecordRows {
    /// The product and account matter to a series only for a non-renewing purchase (its duration,
    /// stacking per account, E10): left empty on other rows, a million strings fewer to read.
    static let subscriberIntervalColumns: SQL = """
        SELECT store, environment, original_transaction_id,
               CASE WHEN kind = 'nonRenewing' THEN store_product_id ELSE '' END, kind, start, end_at,
               CASE WHEN kind = 'nonRenewing' THEN account_id ELSE '' END
        FROM subscriber_intervals
        """

    static func subscriberInterval(_ row: some StoredRow) throws(StoreError) -> SubscriberSeries.Row {
        let id = row.text(2)
        let key = SubscriptionKey(store: try row.decode(Store.self, 0, of: id),
                                  environment: try row.decode(StoreEnvironment.self, 1, of: id), originalTransactionId: id)
        return SubscriberSeries.Row(accountId: row.text(7), interval: SubscriptionInterval(
            subscription: key, productId: row.text(3), kind: try row.decode(SubscriptionInterval.Kind.self, 4, of: id),
            period: ActivePeriod(start: row.instant(5), end: row.instant(6))))
    }
}

extension SQLReading {
    /// E37: the stored intervals of every subscription with one of `products`, each
    /// subscription's rows next to each other (product and account only on non-renewing rows).
    public func subscriberIntervals(products: [StoreProductRef]) throws(StoreError) -> [SubscriberSeries.Row] {
        guard !products.isEmpty else { return [] }
        let any = SQL.joined(products.map { "(store = \($0.store.rawValue) AND store_product_id = \($0.storeProductId))" },
                             separator: " OR ")
        return try connection.query("""
            \(RecordRows.subscriberIntervalColumns) WHERE \(any)
            ORDER BY store, environment, original_transaction_id
            """) { row throws(StoreError) in try RecordRows.subscriberInterval(row) }
    }

    /// Every account that owns a subscription or purchase, by id.
    public func owningAccounts(after accountId: String, limit: Int) throws(StoreError) -> [String] {
        try connection.query("""
            SELECT DISTINCT account_id FROM owners WHERE account_id > \(accountId) ORDER BY account_id LIMIT \(limit)
            """) { $0.text(0) }
    }

    /// Subscriptions and purchases whose facts are stored and that no account owns (E35 keeps a
    /// deleted account's store transactions under no account).
    public func ownerlessSubscriptions() throws(StoreError) -> [SubscriptionKey] {
        try connection.query("""
            SELECT DISTINCT t.store, t.environment, t.original_transaction_id FROM transactions t
            LEFT JOIN owners o ON \(RecordRows.sameSubscription("o", "t")) WHERE o.account_id IS NULL
            """) { row throws(StoreError) in
            let id = row.text(2)
            return SubscriptionKey(store: try row.decode(Store.self, 0, of: id),
                                   environment: try row.decode(StoreEnvironment.self, 1, of: id), originalTransactionId: id)
        }
    }

    /// The catalog product a store sells as `ref`, if any.
    func product(_ ref: StoreProductRef) throws(StoreError) -> Product? {
        try connection.queryFirst("""
            \(RecordRows.productColumns) WHERE store = \(ref.store.rawValue) AND store_product_id = \(ref.storeProductId)
            """) { row throws(StoreError) in try RecordRows.product(row) }
    }
}

extension SQLWriteTransaction {
    /// E37: the intervals of every subscription the account owns, computed again from its facts
    /// in this unit of work. A subscription it no longer owns is left to its new owner's refresh,
    /// or kept as it was when nobody owns it now (E35: a deleted account's store subscriptions
    /// stay in the series; decision 89).
    public func refreshSubscriberIntervals(ofAccount accountId: String) throws(StoreError) {
        let facts = AccountFacts(transactions: try transactions(ofAccount: accountId),
                                 renewals: try renewalInfos(ofAccount: accountId))
        try replaceSubscriberIntervals(from: facts, accountId: accountId)
    }

    /// The same for one subscription nobody owns, from its own facts.
    public func refreshSubscriberIntervals(ofSubscription key: SubscriptionKey) throws(StoreError) {
        let facts = AccountFacts(transactions: try transactions(of: key), renewals: try renewalInfo(key).map { [$0] } ?? [])
        try replaceSubscriberIntervals(from: facts, accountId: "")
    }

    public func deleteAllSubscriberIntervals() throws(StoreError) {
        _ = try connection.run("DELETE FROM subscriber_intervals")
    }

    private func replaceSubscriberIntervals(from facts: AccountFacts, accountId: String) throws(StoreError) {
        guard !facts.transactions.isEmpty else { return }
        var products: [Product] = []
        var named: Set<StoreProductRef> = []
        for t in facts.transactions where named.insert(StoreProductRef(store: t.store, storeProductId: t.productId)).inserted {
            if let product = try product(StoreProductRef(store: t.store, storeProductId: t.productId)) { products.append(product) }
        }
        let computed = SubscriptionIntervals.of(facts, products: products)
        for key in computed.subscriptions {
            _ = try connection.run("DELETE FROM subscriber_intervals WHERE \(RecordRows.subscriptionKey(key))")
        }
        for i in computed.intervals {
            _ = try connection.run("""
                INSERT INTO subscriber_intervals
                    (store, environment, original_transaction_id, store_product_id, kind, start, end_at, account_id)
                VALUES (\(i.subscription.store.rawValue), \(i.subscription.environment.rawValue),
                        \(i.subscription.originalTransactionId), \(i.productId), \(i.kind.rawValue), \(i.period.start),
                        \(i.period.end), \(accountId))
                """)
        }
    }
}

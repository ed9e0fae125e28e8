import Entitle
import IssueCatalog
import Wire

/// E37's derived rows (`subscriber_intervals`): each store subscription's paid, trial and grace
/// periods per product, as `SubscriptionIntervals` computes them from the facts. Written again for
/// each account marked due after a change of its facts (`SubscriberIntervalsUpkeep`, decision 96),
/// so a series never evaluates accounts; `rebuildSubscriberIntervals` makes them again from the facts.
extension RecordRows {
    /// One product's rows in subscription order (the index `subscriber_intervals_by_product`
    /// holds them so: no sort). The account matters to a series only for a non-renewing purchase
    /// (stacking per account, E10): left empty on other rows, a million strings fewer to read.
    static func subscriberIntervals(of product: StoreProductRef) -> SQL {
        """
        SELECT environment, original_transaction_id, CASE WHEN kind = 'nonRenewing' THEN account_id ELSE '' END,
               kind, start, end_at
        FROM subscriber_intervals WHERE store = \(product.store.rawValue) AND store_product_id = \(product.storeProductId)
        ORDER BY environment, original_transaction_id
        """
    }
}

extension SQLReading {
    /// E37: gives `tally` the stored intervals of every subscription with one of `products`,
    /// each subscription once with all its rows: one indexed read per product, kept compactly and
    /// merged by subscription per store (`SubscriberIntervalList`).
    public func tallySubscriberIntervals(products: [StoreProductRef],
                                         into tally: inout SubscriberSeries.Tally) throws(StoreError) {
        for store in Store.allCases {
            var lists: [SubscriberIntervalList] = []
            for product in products where product.store == store {
                var list = SubscriberIntervalList()
                // The rows are kept by `append`; `query` maps each to nothing.
                _ = try connection.query(RecordRows.subscriberIntervals(of: product)) { row throws(StoreError) in
                    try list.append(row, of: product, into: &tally)
                }
                list.finish()
                lists.append(list)
            }
            SubscriberIntervalList.tally(lists, store: store, into: &tally)
        }
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
            SELECT s.store, s.environment, s.original_transaction_id FROM subscription_facts s
            LEFT JOIN owners o ON \(RecordRows.sameSubscription("o", "s")) WHERE o.account_id IS NULL
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

    /// What `SubscriptionIntervals` computes from each account's facts (accounts without
    /// transactions left out), each catalog product named read once for all of them (a drain
    /// derives up to a batch of accounts, most naming the same few products). Writes nothing: a
    /// drain computes them on a snapshot, off the writer (decision 130).
    public func subscriberIntervals(of accounts: [(accountId: String, facts: AccountFacts)])
        throws(StoreError) -> [DerivedSubscriberIntervals] {
        var catalog: [StoreProductRef: Product?] = [:]
        var computed: [DerivedSubscriberIntervals] = []
        for (accountId, facts) in accounts where !facts.transactions.isEmpty {
            computed.append(DerivedSubscriberIntervals(
                accountId: accountId,
                intervals: SubscriptionIntervals.of(facts, products: try products(named: facts, catalog: &catalog))))
        }
        return computed
    }

    /// The catalog products the facts' transactions name, each read once into `catalog`.
    private func products(named facts: AccountFacts, catalog: inout [StoreProductRef: Product?]) throws(StoreError) -> [Product] {
        var products: [Product] = []
        var named: Set<StoreProductRef> = []
        for t in facts.transactions {
            let ref = StoreProductRef(store: t.store, storeProductId: t.productId)
            guard named.insert(ref).inserted else { continue }
            let found: Product?
            if let known = catalog[ref] { found = known } else { found = try product(ref); catalog[ref] = found }
            if let found { products.append(found) }
        }
        return products
    }
}

extension SQLWriteTransaction {
    /// E37: the intervals of one subscription nobody owns, computed again from its own facts.
    public func refreshSubscriberIntervals(ofSubscription key: SubscriptionKey) throws(StoreError) {
        let facts = AccountFacts(transactions: try transactions(of: key), renewals: try renewalInfo(key).map { [$0] } ?? [])
        try replaceSubscriberIntervals(from: facts, accountId: "")
    }

    public func deleteAllSubscriberIntervals() throws(StoreError) {
        _ = try connection.run("DELETE FROM subscriber_intervals")
    }

    /// Makes the stored intervals of every subscription in `facts` those `SubscriptionIntervals`
    /// computes from them: the subscription's rows deleted (by its key, the primary key's
    /// prefix), then written.
    public func replaceSubscriberIntervals(from facts: AccountFacts, accountId: String) throws(StoreError) {
        try replaceSubscriberIntervals(try subscriberIntervals(of: [(accountId, facts)]))
    }

    /// Makes the stored intervals of every subscription each account's computation holds those
    /// computed: the batch's subscriptions are deleted, then their intervals written, a chunk a
    /// statement (`SQLRowChunks`); a subscription two accounts of the batch computed keeps the later's.
    public func replaceSubscriberIntervals(_ computed: [DerivedSubscriberIntervals]) throws(StoreError) {
        var latest: [SubscriptionKey: [(accountId: String, interval: SubscriptionInterval)]] = [:]
        var order: [SubscriptionKey] = []
        for account in computed {
            var intervals: [SubscriptionKey: [(accountId: String, interval: SubscriptionInterval)]] = [:]
            for interval in account.intervals.intervals {
                intervals[interval.subscription, default: []].append((account.accountId, interval))
            }
            for key in account.intervals.subscriptions {
                if latest[key] == nil { order.append(key) }
                latest[key] = intervals[key] ?? []
            }
        }
        for chunk in SQLRowChunks.chunks(order) {
            let keys = SQLRowChunks.values(chunk) { key in
                "\(key.store.rawValue), \(key.environment.rawValue), \(key.originalTransactionId)"
            }
            try connection.runLater("""
                DELETE FROM subscriber_intervals WHERE (store, environment, original_transaction_id) IN (VALUES \(keys))
                """)
        }
        for chunk in SQLRowChunks.chunks(order.flatMap { latest[$0] ?? [] }) {
            let rows = SQLRowChunks.values(chunk) { row in
                let i = row.interval
                return """
                    \(i.subscription.store.rawValue), \(i.subscription.environment.rawValue), \
                    \(i.subscription.originalTransactionId), \(i.productId), \(i.kind.rawValue), \(i.period.start), \
                    \(i.period.end), \(row.accountId)
                    """
            }
            try connection.runLater("""
                INSERT INTO subscriber_intervals
                    (store, environment, original_transaction_id, store_product_id, kind, start, end_at, account_id)
                VALUES \(rows)
                """)
        }
    }
}

import Entitle
import IssueCatalog
import Wire

/// E37's derived rows (`subscriber_intervals`): each store subscription's paid, trial and grace
/// periods per product, as `SubscriptionIntervals` computes them from the facts. Written again for
/// each account marked due after a change of its facts (`SubscriberIntervalsUpkeep`, decision 96),
/// so a series never evaluates accounts; `rebuildSubscriberIntervals` makes them again from the facts.
extension RecordRows {
    /// One product's rows in subscription order (the index `subscriber_intervals_by_product`
    /// holds them so: no sort). The product and account matter to a series only for a
    /// non-renewing purchase (its duration, stacking per account, E10): left empty on other rows,
    /// a million strings fewer to read.
    static func subscriberIntervals(of product: StoreProductRef) -> SQL {
        """
        SELECT environment, original_transaction_id, CASE WHEN kind = 'nonRenewing' THEN account_id ELSE '' END,
               kind, start, end_at
        FROM subscriber_intervals WHERE store = \(product.store.rawValue) AND store_product_id = \(product.storeProductId)
        ORDER BY environment, original_transaction_id
        """
    }

    static func subscriberInterval(_ row: some StoredRow, of product: StoreProductRef) throws(StoreError) -> SubscriberSeries.Row {
        let id = row.text(1)
        // Parsed where they are read: the generic `decode` costs a metadata lookup per value.
        guard let environment = StoreEnvironment(rawValue: row.text(0)),
              let kind = SubscriptionInterval.Kind(rawValue: row.text(3)) else {
            throw row.corrupt("subscriber interval of \(id): bad environment or kind")
        }
        let key = SubscriptionKey(store: product.store, environment: environment, originalTransactionId: id)
        return SubscriberSeries.Row(accountId: row.text(2), interval: SubscriptionInterval(
            subscription: key, productId: kind == .nonRenewing ? product.storeProductId : "", kind: kind,
            period: ActivePeriod(start: row.instant(4), end: row.instant(5))))
    }

    /// Rows of several products of one store, each list in (environment, original transaction
    /// id) order as SQL compares them (bytes: SQLite's BINARY, PostgreSQL's "C"), merged so that
    /// each subscription's rows are next to each other (a subscription that changed product has
    /// rows in several lists).
    static func mergedBySubscription(_ lists: [[SubscriberSeries.Row]]) -> [SubscriberSeries.Row] {
        if lists.count == 1 { return lists[0] }
        func precedes(_ a: SubscriptionKey, _ b: SubscriptionKey) -> Bool {
            a.environment != b.environment ? a.environment.rawValue.utf8.lexicographicallyPrecedes(b.environment.rawValue.utf8)
                : a.originalTransactionId.utf8.lexicographicallyPrecedes(b.originalTransactionId.utf8)
        }
        var out: [SubscriberSeries.Row] = []
        out.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        var heads = lists.map { _ in 0 }
        while true {
            var next: SubscriptionKey?
            for (l, list) in lists.enumerated() where heads[l] < list.count {
                let key = list[heads[l]].interval.subscription
                if next.map({ precedes(key, $0) }) ?? true { next = key }
            }
            guard let key = next else { return out }
            for (l, list) in lists.enumerated() {
                while heads[l] < list.count, list[heads[l]].interval.subscription == key { out.append(list[heads[l]]); heads[l] += 1 }
            }
        }
    }
}

extension SQLReading {
    /// E37: the stored intervals of every subscription with one of `products`, each
    /// subscription's rows next to each other (product and account only on non-renewing rows):
    /// one indexed read per product, merged per store.
    public func subscriberIntervals(products: [StoreProductRef]) throws(StoreError) -> [SubscriberSeries.Row] {
        var out: [SubscriberSeries.Row] = []
        for store in Store.allCases {
            var lists: [[SubscriberSeries.Row]] = []
            for product in products where product.store == store {
                lists.append(try connection.query(RecordRows.subscriberIntervals(of: product)) { row throws(StoreError) in
                    try RecordRows.subscriberInterval(row, of: product)
                })
            }
            if !lists.isEmpty { out += RecordRows.mergedBySubscription(lists) }
        }
        return out
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

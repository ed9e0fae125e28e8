import Entitle
import IssueCatalog
import Wire

/// The store's customer behind each subscription or purchase (`store_customers`; Stripe's `cus_…`).
extension SQLReading {
    /// The subscriptions and purchases of one customer of `store`, in key order.
    public func subscriptions(ofCustomer customerId: String, store: Store,
                              environment: StoreEnvironment) throws(StoreError) -> [SubscriptionKey] {
        try connection.query("""
            SELECT original_transaction_id FROM store_customers
            WHERE store = \(store.rawValue) AND environment = \(environment.rawValue) AND customer_id = \(customerId)
            ORDER BY original_transaction_id
            """) { row throws(StoreError) in
            SubscriptionKey(store: store, environment: environment, originalTransactionId: row.text(0))
        }
    }
}

extension SQLWriteTransaction {
    /// Stripe names the same customer at every event of a subscription: then the row is left
    /// as it is, not written again.
    public func setCustomer(_ customerId: String, of subscription: SubscriptionKey) throws(StoreError) {
        try connection.runLater(.upsert(into: "store_customers", key: RecordRows.subscriptionColumns(subscription),
                                   set: ["customer_id": customerId], onlyWhenChanged: true))
    }
}

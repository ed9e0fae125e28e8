import Entitle
import Wire

/// What the App Store Server API work reads and records outside an ingest, one unit of work each.
extension GatewayStore {
    /// The subscriptions among `subscriptions` whose whole history has not been fetched yet.
    public func historiesNotFetched(_ subscriptions: Set<SubscriptionKey>) throws(StoreError) -> [SubscriptionKey] {
        try read { tx throws(StoreError) in
            var missing: [SubscriptionKey] = []
            for key in subscriptions.sorted() where try !tx.isHistoryFetched(key) { missing.append(key) }
            return missing
        }
    }

    public func serviceMark(_ name: String) throws(StoreError) -> Instant? {
        try read { tx throws(StoreError) in try tx.serviceMark(name) }
    }

    public func setServiceMark(_ name: String, at instant: Instant) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.setServiceMark(name, at: instant) }
    }

    /// The subscriptions and single purchases an account owns (E4), for a refresh from Apple.
    public func subscriptions(ofAccount accountId: String) throws(StoreError) -> [SubscriptionKey] {
        try read { tx throws(StoreError) in Set(try tx.transactions(ofAccount: accountId).map(\.subscriptionKey)).sorted() }
    }

    /// See `ReadTransaction.storedReceipts`.
    public func storedReceipts(after digest: String?, limit: Int) throws(StoreError) -> [ReceiptContent] {
        try read { tx throws(StoreError) in try tx.storedReceipts(after: digest, limit: limit) }
    }
}

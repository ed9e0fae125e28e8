import GatewayStore

extension SubscriberLists {
    /// E29: one subscriber of the publication and the account holding its claim, if any.
    package func subscriber(_ customerNumber: String, of publicationId: String) throws(GatewayError)
        -> (subscriber: PrintSubscriber, claimedBy: String?)? {
        try stored { () throws(StoreError) in try store.subscriber(publicationId: publicationId, customerNumber: customerNumber) }
    }

    /// The latest lists received, the newest first.
    package func recentImports() throws(GatewayError) -> [SubscriberImport] {
        try stored { () throws(StoreError) in try store.subscriberImports(limit: Self.recentImports) }
    }
}

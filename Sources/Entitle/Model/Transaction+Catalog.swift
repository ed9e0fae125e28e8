import IssueCatalog

extension CatalogSnapshot {
    /// The catalog product a transaction names: by its store and the store's product id (E23).
    public func product(of transaction: Transaction) -> Product? {
        product(transaction.store, storeProductId: transaction.productId)
    }
}

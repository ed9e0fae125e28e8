/// A product as one store names it: (store, storeProductId), unique in a catalog (Vocabulary:
/// Product). A transaction's `productId` is the store's id, so it is looked up with its store.
public struct StoreProductRef: Hashable, Sendable, Comparable {
    public var store: Store
    public var storeProductId: String

    public init(store: Store, storeProductId: String) { self.store = store; self.storeProductId = storeProductId }

    public static func < (a: StoreProductRef, b: StoreProductRef) -> Bool {
        (a.store, a.storeProductId) < (b.store, b.storeProductId)
    }
}

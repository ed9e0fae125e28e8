import IssueCatalog
import Wire

public enum PurchaseState: String, Hashable, Sendable, CaseIterable {
    case active, revoked
}

/// A single-issue, non-renewing or free purchase (E10, E11, E14).
public struct PurchaseStatus: Hashable, Sendable {
    public var productId: String
    public var transactionId: String
    public var store: Store
    public var environment: StoreEnvironment
    /// Only for single-issue products (E14).
    public var issue: IssueRef?
    public var state: PurchaseState
    /// The catalog kind of the product; nil when the catalog does not know the product.
    public var kind: Product.Kind?
    public var purchaseDate: Instant

    public init(productId: String, transactionId: String, store: Store, environment: StoreEnvironment,
                issue: IssueRef?,
                state: PurchaseState, kind: Product.Kind?, purchaseDate: Instant) {
        self.productId = productId; self.transactionId = transactionId; self.store = store; self.environment = environment
        self.issue = issue; self.state = state; self.kind = kind; self.purchaseDate = purchaseDate
    }
}

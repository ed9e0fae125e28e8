import Wire

/// What a store sells (entitlement-rules.md, Vocabulary: Product). The catalog's own `id` is
/// unique in the catalog; `store` and `storeProductId` name it in one store, and (store,
/// storeProductId) is unique too (E23: transactions find their product through it).
public struct Product: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case autoRenewable, nonRenewing, issue, free
    }

    public var id: String
    public var store: Store
    /// The App Store or Google Play product id, or the Stripe price id.
    public var storeProductId: String
    public var kind: Kind
    /// Publications this product grants; a bundle grants several (E17: changing them changes
    /// the entitlements of everyone who owns the product).
    public var grants: [String]
    /// Auto-renewable products only.
    public var subscriptionGroup: String?
    public var level: Int?
    /// Non-renewing products only (E10).
    public var duration: ISODuration?
    /// Single-issue products only (E14).
    public var issue: IssueRef?
    /// Informative: products of different platforms are simply different products.
    public var platform: String?
    /// E17: stops the product from being offered; never takes away what was bought.
    public var discontinuedAt: Instant?

    /// `store` defaults to the App Store and `storeProductId` to the catalog `id` (http-api.md,
    /// "Google Play and Stripe"): a catalog of App Store products names each once.
    public init(id: String, store: Store = .appStore, storeProductId: String? = nil, kind: Kind, grants: [String],
                subscriptionGroup: String? = nil, level: Int? = nil,
                duration: ISODuration? = nil, issue: IssueRef? = nil, platform: String? = nil,
                discontinuedAt: Instant? = nil) {
        self.id = id; self.store = store; self.storeProductId = storeProductId ?? id
        self.kind = kind; self.grants = grants
        self.subscriptionGroup = subscriptionGroup; self.level = level; self.duration = duration
        self.issue = issue; self.platform = platform; self.discontinuedAt = discontinuedAt
    }

    /// How transactions of its store name it.
    public var storeRef: StoreProductRef { StoreProductRef(store: store, storeProductId: storeProductId) }

    public func isDiscontinued(at now: Instant) -> Bool {
        guard let d = discontinuedAt else { return false }
        return d <= now
    }
}

/// Names one issue of one publication.
public struct IssueRef: Hashable, Sendable, Comparable {
    public var publicationId: String
    public var issueId: String

    public init(publicationId: String, issueId: String) { self.publicationId = publicationId; self.issueId = issueId }

    public static func < (a: IssueRef, b: IssueRef) -> Bool {
        (a.publicationId, a.issueId) < (b.publicationId, b.issueId)
    }
}

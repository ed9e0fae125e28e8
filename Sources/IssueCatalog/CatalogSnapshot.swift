import Wire

/// An immutable, indexed view of a catalog, built once per catalog change and shared by every
/// event loop. It answers the engine's questions without scanning: a publication's issues in
/// `publishedAt` order, "issues in [start, end)" and "latest issue at or before t" by binary search.
public final class CatalogSnapshot: Sendable {
    public let catalog: Catalog
    private let publicationsById: [String: Publication]
    private let productsById: [String: Product]
    private let productsByStoreRef: [StoreProductRef: Product]
    /// Per publication, issues sorted by (publishedAt, id): ties broken by id so every run agrees.
    private let issuesByPublication: [String: [Issue]]
    private let issueIndex: [IssueRef: Issue]

    public init(_ catalog: Catalog) {
        self.catalog = catalog
        publicationsById = Dictionary(catalog.publications.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        productsById = Dictionary(catalog.products.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        productsByStoreRef = Dictionary(catalog.products.map { ($0.storeRef, $0) }, uniquingKeysWith: { _, last in last })
        var grouped: [String: [Issue]] = [:]
        for issue in catalog.issues { grouped[issue.publicationId, default: []].append(issue) }
        for key in grouped.keys {
            grouped[key]!.sort { ($0.publishedAt, $0.id) < ($1.publishedAt, $1.id) }
        }
        issuesByPublication = grouped
        issueIndex = Dictionary(catalog.issues.map { ($0.ref, $0) }, uniquingKeysWith: { _, last in last })
    }

    public var publications: [Publication] { catalog.publications }
    public var products: [Product] { catalog.products }

    public func publication(_ id: String) -> Publication? { publicationsById[id] }
    /// A product by its catalog id.
    public func product(_ id: String) -> Product? { productsById[id] }
    /// The product a store's transaction names: its store and the store's product id (E23).
    public func product(_ store: Store, storeProductId: String) -> Product? {
        productsByStoreRef[StoreProductRef(store: store, storeProductId: storeProductId)]
    }
    public func issue(_ ref: IssueRef) -> Issue? { issueIndex[ref] }
    public func issue(publicationId: String, issueId: String) -> Issue? {
        issueIndex[IssueRef(publicationId: publicationId, issueId: issueId)]
    }

    /// A publication's issues, every state, oldest first.
    public func issues(of publicationId: String) -> ArraySlice<Issue> {
        issuesByPublication[publicationId].map { $0[...] } ?? []
    }

    /// Issues with `start <= publishedAt < end` (half-open, as every interval in the rules).
    public func issues(of publicationId: String, from start: Instant, to end: Instant) -> ArraySlice<Issue> {
        guard let all = issuesByPublication[publicationId], start < end else { return [] }
        let lo = Self.firstIndex(in: all) { $0.publishedAt >= start }
        let hi = Self.firstIndex(in: all) { $0.publishedAt >= end }
        return all[lo..<hi]
    }

    /// The latest issue with `publishedAt <= t` (E13), skipping those `include` rejects.
    public func latestIssue(of publicationId: String, atOrBefore t: Instant,
                            where include: (Issue) -> Bool = { _ in true }) -> Issue? {
        guard let all = issuesByPublication[publicationId] else { return nil }
        var i = Self.firstIndex(in: all) { $0.publishedAt > t }
        while i > 0 {
            i -= 1
            if include(all[i]) { return all[i] }
        }
        return nil
    }

    /// The first index whose issue satisfies a predicate that is monotone over the sorted array.
    private static func firstIndex(in issues: [Issue], where predicate: (Issue) -> Bool) -> Int {
        var lo = 0, hi = issues.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if predicate(issues[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}

import GatewayStore
import IssueCatalog
import Wire

/// Catalog edits (http-api.md, Catalog): each a write, then the new catalog published to every
/// reader of `CatalogCache`, then any issue it made published announced at once.
package struct CatalogChanges: Sendable {
    private let store: any GatewayStore
    private let catalog: CatalogCache
    private let announcements: PublicationAnnouncements

    package init(store: any GatewayStore, catalog: CatalogCache, announcements: PublicationAnnouncements) {
        self.store = store; self.catalog = catalog; self.announcements = announcements
    }

    package func save(_ publication: Publication) throws(GatewayError) -> UpsertOutcome {
        try change { () throws(StoreError) in try store.upsertPublication(publication) }
    }

    /// `notFound` when it grants an unknown publication; `conflict` when another product has its
    /// store and store product id.
    package func save(_ product: Product) throws(GatewayError) -> UpsertOutcome {
        switch try change({ () throws(StoreError) in try store.upsertProduct(product) }) {
        case .saved(let outcome): return outcome
        case .unknownPublication(let publicationId):
            throw .notFound("publication \(publicationId) granted by product \(product.id)")
        case .storeProductTaken(let other):
            throw .conflict("\(product.store.rawValue) product \(product.storeProductId) is already product \(other)")
        }
    }

    /// A new issue; `conflict` when its id exists in the publication, `notFound` when the
    /// publication does not.
    package func add(_ issue: Issue) throws(GatewayError) {
        switch try change({ () throws(StoreError) in try store.insertIssue(issue) }) {
        case .inserted: return
        case .unknownPublication: throw .notFound("publication \(issue.publicationId)")
        case .exists: throw .conflict("issue \(issue.id) exists in publication \(issue.publicationId)")
        }
    }

    /// The issue as stored after the edit; `notFound` when there is none.
    package func update(_ issue: Issue) throws(GatewayError) -> Issue {
        guard let stored = try change({ () throws(StoreError) in try store.updateIssue(issue) }) else { throw Self.missing(issue.ref) }
        return stored
    }

    /// E16: the issue as stored once retracted at `instant`; `notFound` when there is none.
    package func retract(_ ref: IssueRef, at instant: Instant) throws(GatewayError) -> Issue {
        guard let stored = try change({ () throws(StoreError) in try store.retractIssue(ref, at: instant) }) else { throw Self.missing(ref) }
        return stored
    }

    private static func missing(_ ref: IssueRef) -> GatewayError {
        .notFound("issue \(ref.issueId) of publication \(ref.publicationId)")
    }

    @discardableResult
    private func change<T>(_ change: () throws(StoreError) -> T) throws(GatewayError) -> T {
        let result = try stored(change)
        try stored { () throws(StoreError) in try catalog.reload() }
        announcements.announceDue()
        return result
    }
}

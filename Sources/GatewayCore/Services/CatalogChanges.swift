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

    package func save(_ product: Product) throws(GatewayError) -> UpsertOutcome {
        try change { () throws(StoreError) in try store.upsertProduct(product) }
    }

    /// A new issue; `conflict` when its id exists in the publication.
    package func add(_ issue: Issue) throws(GatewayError) {
        try change { () throws(StoreError) in try store.insertIssue(issue) }
    }

    /// The issue as stored after the edit.
    package func update(_ issue: Issue) throws(GatewayError) -> Issue {
        try change { () throws(StoreError) in try store.updateIssue(issue) }
    }

    /// E16: the issue as stored once retracted at `instant`.
    package func retract(_ ref: IssueRef, at instant: Instant) throws(GatewayError) -> Issue {
        try change { () throws(StoreError) in try store.retractIssue(ref, at: instant) }
    }

    @discardableResult
    private func change<T>(_ change: () throws(StoreError) -> T) throws(GatewayError) -> T {
        let result = try stored(change)
        try stored { () throws(StoreError) in try catalog.reload() }
        announcements.announceDue()
        return result
    }
}

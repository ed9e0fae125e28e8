import GatewayStore

/// A catalog write, then the new catalog published to every reader of `CatalogCache`, then any
/// issue it made published announced at once.
package struct CatalogChanges: Sendable {
    private let catalog: CatalogCache
    private let announcements: PublicationAnnouncements

    package init(catalog: CatalogCache, announcements: PublicationAnnouncements) {
        self.catalog = catalog; self.announcements = announcements
    }

    @discardableResult
    package func change<T>(_ change: () throws(StoreError) -> T) throws(GatewayError) -> T {
        let result = try stored(change)
        try stored { () throws(StoreError) in try catalog.reload() }
        announcements.announceDue()
        return result
    }
}

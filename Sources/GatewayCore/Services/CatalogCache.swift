import GatewayStore
import IssueCatalog
import Synchronization

/// The catalog every event loop reads: an immutable `CatalogState` swapped whole after each
/// change, so a publish, correction or retraction reaches the next request on every loop without
/// a restart, and a reader never sees half a change.
package final class CatalogCache: Sendable {
    private let store: any GatewayStore
    private let current: Mutex<CatalogState>
    /// Serialises reloads so that a slower reload never replaces a newer revision.
    private let reloading = Mutex<Void>(())

    package init(store: any GatewayStore) throws(StoreError) {
        self.store = store
        let stored = try store.storedCatalog()
        current = Mutex(CatalogState(revision: stored.revision, catalog: stored.catalog))
    }

    package var state: CatalogState { current.withLock { $0 } }

    /// Re-reads the catalog after a change committed by this process (or any other sharing the store).
    package func reload() throws(StoreError) {
        try reloading.withLock { _ throws(StoreError) in
            guard try store.catalogRevision() != state.revision else { return }
            let stored = try store.storedCatalog()  // the catalog with its own revision, one snapshot
            let fresh = CatalogState(revision: stored.revision, catalog: stored.catalog)
            current.withLock { $0 = fresh }
        }
    }
}

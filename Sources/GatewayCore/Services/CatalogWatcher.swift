import Foundation
import Lifecycle
import Synchronization
import Wire

/// Picks up catalog changes made by other writers of the same database (`issue-gateway catalog
/// publish` or `catalog import` while the server runs): it compares the store's catalog revision
/// every `interval` and reloads when it moved. Changes through the API reach every loop at once
/// without it (`CatalogCache.reload` after each write); this bounds the others' delay.
public final class CatalogWatcher: ThreadBackedService {
    package static let standardInterval: Duration = .seconds(1)

    private let catalog: CatalogCache
    private let interval: Duration
    public let serviceThread = ServiceThread(name: "catalog-watcher")

    package init(catalog: CatalogCache, interval: Duration = CatalogWatcher.standardInterval) {
        self.catalog = catalog
        self.interval = interval
    }

    public func run(until stop: StopToken) {
        while !stop.pause(for: interval) {
            // A failed read is retried on the next tick; the last good catalog keeps serving.
            try? catalog.reload()
        }
    }
}

import Foundation
import Synchronization
import Wire

/// Picks up catalog changes made by other writers of the same database (`issue-gateway catalog
/// publish` or `catalog import` while the server runs): it compares the store's catalog revision
/// every `interval` and reloads when it moved. Changes through the API reach every loop at once
/// without it (`CatalogCache.reload` after each write); this bounds the others' delay.
final class CatalogWatcher: Sendable {
    static let standardInterval: Duration = .seconds(1)

    private let catalog: CatalogCache
    private let interval: Duration
    private let stopSignal = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    init(catalog: CatalogCache, interval: Duration = CatalogWatcher.standardInterval) {
        self.catalog = catalog
        self.interval = interval
    }

    func start() {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                _ = stopSignal.wait(timeout: .now() + .milliseconds(interval.milliseconds))
                guard !stopped.load(ordering: .relaxed) else { break }
                // A failed read is retried on the next tick; the last good catalog keeps serving.
                try? catalog.reload()
            }
        }
        thread.name = "catalog-watcher"
        thread.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        stopSignal.signal()
    }
}

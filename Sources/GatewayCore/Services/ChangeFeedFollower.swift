import Foundation
import GatewayStore
import Lifecycle
import Wire

/// Keeps this process's caches coherent with the other processes sharing its store:
/// follows the store's change feed (woken by `LISTEN`, and reading the log at least every
/// `pollInterval` anyway) and drops exactly what each change makes stale: the catalog, one
/// account's facts and answers, one key's resolution. A process that cannot read the feed for
/// longer than `staleAfter` stops serving from those caches (`CacheCoherence`) until it has
/// caught up: the log holds what it missed, so nothing is lost with a connection.
public final class ChangeFeedFollower: ThreadBackedService {
    package struct Settings: Sendable {
        /// The longest wait between two reads of the log when no notification comes.
        package var pollInterval: Duration = .milliseconds(200)
        /// How long caches are served from without word from the feed.
        package var staleAfter: Duration = .seconds(1)
        /// Entries read at once.
        package var batchLimit = 1_000
        /// Entries older than this are pruned, every `pruneInterval`; a process away longer
        /// drops all its caches when it is back (`ChangeBatch.oldestKept`).
        package var retention: Duration = .seconds(3_600)
        package var pruneInterval: Duration = .seconds(60)

        package static let standard = Settings()
    }

    private let feed: any ChangeFeed
    private let catalog: CatalogCache
    private let accounts: AccountFactsCache
    private let authenticator: Authenticator
    private let coherence: CacheCoherence
    private let clock: any GatewayClock
    private let settings: Settings
    public let serviceThread = ServiceThread(name: "change-feed")

    package init(feed: any ChangeFeed, catalog: CatalogCache, accounts: AccountFactsCache, authenticator: Authenticator,
         coherence: CacheCoherence, clock: any GatewayClock, settings: Settings = .standard) {
        self.feed = feed
        self.catalog = catalog
        self.accounts = accounts
        self.authenticator = authenticator
        self.coherence = coherence
        self.clock = clock
        self.settings = settings
    }

    public func run(until stop: StopToken) {
        var position: Int64?
        var lastHeard = ContinuousClock.now
        var lastPruned = ContinuousClock.now
        while !stop.isStopRequested {
            do throws(StoreError) {
                let caughtUp = try catchUp(&position)
                lastHeard = .now
                if caughtUp {
                    coherence.trust()
                    if ContinuousClock.now - lastPruned >= settings.pruneInterval {
                        lastPruned = .now
                        try feed.prune(before: clock.now().adding(milliseconds: -Int64(settings.retention.milliseconds)))
                    }
                    feed.waitForChanges(timeout: settings.pollInterval)
                }
            } catch {
                if ContinuousClock.now - lastHeard > settings.staleAfter { coherence.distrust() }
                _ = stop.pause(for: settings.pollInterval)
            }
        }
    }

    /// Reads one batch after `position` and applies it; true when nothing more is waiting.
    private func catchUp(_ position: inout Int64?) throws(StoreError) -> Bool {
        guard let after = position else {
            // First contact: what is cached was read before any later change; start from now.
            position = try feed.latestSequence()
            forgetEverything()
            return false
        }
        let batch = try feed.changes(after: after, limit: settings.batchLimit)
        if let oldest = batch.oldestKept, oldest > after + 1 {
            forgetEverything()  // entries this process never read were pruned
        }
        // This process's own changes invalidated its caches when they were made.
        apply(batch.changes.filter { !feed.madeHere($0.sequence) }.map(\.change))
        position = batch.changes.last?.sequence ?? after
        return batch.changes.count < settings.batchLimit
    }

    package func apply(_ changes: [StoreChange]) {
        var accountIds: Set<String> = []
        var catalogChanged = false
        for change in changes {
            switch change {
            case .catalog: catalogChanged = true
            case .accountFacts(let id): accountIds.insert(id)
            case .apiKey(let id): authenticator.forget(keyId: id)
            case .accountEnded(let id):
                authenticator.forget(accountId: id)
                accountIds.insert(id)
            case .session(let id): authenticator.forget(sessionId: id)
            }
        }
        if !accountIds.isEmpty { accounts.invalidate(accountIds) }
        // A failed reload is tried again by the catalog watcher within its interval.
        if catalogChanged { try? catalog.reload() }
    }

    private func forgetEverything() {
        accounts.invalidateAll()
        authenticator.forgetAll()
        try? catalog.reload()
    }
}

import Entitle
import Foundation
@testable import GatewayConfiguration
@testable import GatewayCore
import GatewayStore
import Synchronization
import TestSupport
import Testing
import Wire

/// `ChangeFeedFollower` against a feed in memory: which caches each change drops, a feed that
/// lost entries (pruned while this process was away) drops everything, and a feed that cannot be
/// read makes the caches untrusted until it is read again.
@Suite struct ChangeFeedFollowerTests {
    /// A change feed in memory; `failing` makes every read throw as an unreachable database would.
    final class MemoryFeed: ChangeFeed, @unchecked Sendable {
        let state = Mutex<(changes: [SequencedChange], oldest: Int64?, failing: Bool)>(([], nil, false))

        func latestSequence() throws(StoreError) -> Int64 {
            try state.withLock { s throws(StoreError) in
                if s.failing { throw .busy }
                return s.changes.last?.sequence ?? 0
            }
        }

        func changes(after sequence: Int64, limit: Int) throws(StoreError) -> ChangeBatch {
            try state.withLock { s throws(StoreError) in
                if s.failing { throw .busy }
                return ChangeBatch(changes: Array(s.changes.filter { $0.sequence > sequence }.prefix(limit)),
                                   oldestKept: s.oldest ?? s.changes.first?.sequence)
            }
        }

        /// Sequences this process wrote.
        let own = Mutex<Set<Int64>>([])

        func madeHere(_ sequence: Int64) -> Bool { own.withLock { $0.remove(sequence) != nil } }
        func waitForChanges(timeout: Duration) { Thread.sleep(forTimeInterval: 0.005) }
        func prune(before instant: Instant) throws(StoreError) {}

        func append(_ sequence: Int64, _ change: StoreChange) {
            state.withLock { $0.changes.append(SequencedChange(sequence: sequence, change: change)) }
        }
    }

    struct Fixture {
        let database = TemporaryDatabase()
        let feed = MemoryFeed()
        let coherence = CacheCoherence()
        let accounts: AccountFactsCache
        let follower: ChangeFeedFollower

        init() throws {
            let store = try database.open()
            coherence.distrust()  // trusted once the follower has caught up: tests await that
            accounts = AccountFactsCache(loader: { _ throws(StoreError) in
                VersionedFacts(facts: AccountFacts(), version: 0)
            }, factsBytes: 1 << 20, answerBytes: 1 << 20, coherence: coherence)
            var settings = ChangeFeedFollower.Settings()
            settings.pollInterval = .milliseconds(5)
            settings.staleAfter = .milliseconds(200)
            follower = ChangeFeedFollower(feed: feed, catalog: try CatalogCache(store: store), accounts: accounts,
                                          authenticator: try Authenticator(store: store, adminKey: String(repeating: "k", count: 20),
                                                                           cacheBytes: 1 << 20, coherence: coherence,
                                                                           touches: SessionTouches(store: store)),
                                          coherence: coherence, clock: SystemClock(), settings: settings)
        }

        func cached(_ id: String) -> Bool { accounts.cachedFacts(id) != nil }
    }

    @Test func aChangeDropsThatAccountOnlyAndALostEntryDropsEverything() throws {
        let f = try Fixture()
        f.feed.append(1, .catalog)
        try f.follower.start()
        defer { f.follower.stop(); f.follower.join() }
        #expect(eventually { f.coherence.isTrusted })
        _ = try f.accounts.load("a")
        _ = try f.accounts.load("b")
        // An entry this process wrote (its writer told the caches already) is passed over.
        f.feed.own.withLock { _ = $0.insert(2) }
        f.feed.append(2, .accountFacts(accountId: "b"))
        f.feed.append(3, .accountFacts(accountId: "a"))
        #expect(eventually { !f.cached("a") })
        #expect(f.cached("b"))
        _ = try f.accounts.load("a")
        // Entries 4 and 5 were pruned before this process read them: anything may have changed.
        f.feed.state.withLock { $0.changes = [SequencedChange(sequence: 6, change: .catalog)]; $0.oldest = 6 }
        #expect(eventually { !f.cached("a") && !f.cached("b") })
    }

    @Test func aFeedThatCannotBeReadMakesTheCachesUntrustedUntilItCanAgain() throws {
        let f = try Fixture()
        try f.follower.start()
        defer { f.follower.stop(); f.follower.join() }
        #expect(eventually { f.coherence.isTrusted })
        f.feed.state.withLock { $0.failing = true }
        #expect(eventually { !f.coherence.isTrusted })
        _ = try f.accounts.load("a")
        #expect(!f.cached("a"), "kept while the feed is unread")
        f.feed.state.withLock { $0.failing = false }
        #expect(eventually { f.coherence.isTrusted })
    }
}

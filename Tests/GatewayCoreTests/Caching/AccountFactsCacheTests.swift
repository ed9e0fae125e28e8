import Entitle
import Foundation
@testable import GatewayConfiguration
@testable import GatewayCore
import GatewayStore
import IssueCatalog
import Synchronization
import TestSupport
import Testing
import Wire

/// Per-account invalidation: an ingest on one account forgets that account only, and a load that
/// raced with an invalidation of the same account is not kept, while other accounts keep caching.
@Suite struct AccountFactsCacheTests {
    static let now = Instant(rfc3339: "2026-03-01T00:00:00Z")!
    static let catalog = CatalogSnapshot(Catalog(
        publications: [Publication(id: "mag", title: "Mag")], products: [],
        issues: [Issue(publicationId: "mag", id: "1", title: "One", publishedAt: Instant(rfc3339: "2026-01-01T00:00:00Z")!,
                       free: true, assets: [])]))

    /// A loader that counts its calls and can hold one load until the test lets it go.
    final class Loader: Sendable {
        let calls = Mutex(0)
        let holding = Mutex(false)
        let loading = Gate()
        let release = Gate()

        func load(_ id: String) -> VersionedFacts {
            calls.withLock { $0 += 1 }
            if holding.withLock({ let was = $0; $0 = false; return was }) {
                loading.open()
                release.wait(seconds: 10)
            }
            return VersionedFacts(facts: AccountFacts(), version: 0)
        }
    }

    static func cache(_ loader: Loader, rememberedInvalidations: Int = 64) -> AccountFactsCache {
        AccountFactsCache(loader: { id throws(StoreError) in loader.load(id) }, factsBytes: 1 << 20, answerBytes: 1 << 20,
                          rememberedInvalidations: rememberedInvalidations)
    }

    static func answer(_ facts: AccountFacts) -> IssueListAnswer {
        EntitlementEngine.evaluate(catalog: catalog, facts: facts,
                                   policy: .default, now: now).issueListAnswer
    }

    func kept(_ cache: AccountFactsCache, _ id: String) -> Bool {
        cache.answer(id, publicationId: nil, catalogRevision: 1, now: Self.now) != nil
    }

    @Test func anInvalidationOfTheSameAccountBetweenLoadAndRememberDropsTheAnswer() throws {
        let cache = Self.cache(Loader())
        let loaded = try cache.load("a")
        cache.invalidate(["a"])
        cache.remember(Self.answer(loaded.facts), catalogRevision: 1, "a", ticket: loaded.ticket)
        #expect(!kept(cache, "a"), "computed from facts older than the invalidation")
    }

    @Test func anInvalidationOfAnotherAccountKeepsTheAnswer() throws {
        let cache = Self.cache(Loader())
        let loaded = try cache.load("a")
        cache.invalidate(["b"])
        cache.remember(Self.answer(loaded.facts), catalogRevision: 1, "a", ticket: loaded.ticket)
        #expect(kept(cache, "a"))
        cache.invalidate(["a"])
        #expect(!kept(cache, "a"), "and forgotten when its own account changes")
    }

    @Test func factsLoadedAcrossAnInvalidationAreNotKept() throws {
        let loader = Loader()
        let cache = Self.cache(loader)
        loader.holding.withLock { $0 = true }
        // A thread of its own, as a worker: the test's cooperative pool may be busy with others.
        let loaded = Gate()
        Thread { _ = try? cache.load("a"); loaded.open() }.start()
        #expect(loader.loading.wait(seconds: 10))
        cache.invalidate(["a"])  // an ingest commits while the load is in flight
        loader.release.open()
        #expect(loaded.wait(seconds: 10))
        _ = try cache.load("a")
        #expect(loader.calls.withLock { $0 } == 2, "the raced load was answered but not kept")
        _ = try cache.load("a")
        #expect(loader.calls.withLock { $0 } == 2, "the next load is kept")
        _ = try cache.load("b")
        cache.invalidate(["c"])
        _ = try cache.load("b")
        #expect(loader.calls.withLock { $0 } == 3, "other accounts' invalidations leave b cached")
    }

    @Test func aFullLogRefusesOnlyTheLoadsInFlight() throws {
        let cache = Self.cache(Loader(), rememberedInvalidations: 2)
        let before = try cache.load("a")
        cache.invalidate(["x", "y", "z"])  // past the log's capacity: it forgets and raises its floor
        cache.remember(Self.answer(before.facts), catalogRevision: 1, "a", ticket: before.ticket)
        #expect(!kept(cache, "a"), "a ticket older than what the log remembers is refused")
        let after = try cache.load("a")
        cache.remember(Self.answer(after.facts), catalogRevision: 1, "a", ticket: after.ticket)
        #expect(kept(cache, "a"))
    }

    @Test func severalAccountsLoadInOneReadOfThoseNotKeptAndAreKeptLikeOne() throws {
        let loader = Loader()
        let batches = Mutex<[[String]]>([])
        let cache = AccountFactsCache(loader: { id throws(StoreError) in loader.load(id) },
                                      batchLoader: { ids throws(StoreError) in
                                          batches.withLock { $0.append(ids) }
                                          return Dictionary(uniqueKeysWithValues: ids.map { ($0, loader.load($0)) })
                                      },
                                      factsBytes: 1 << 20, answerBytes: 1 << 20)
        _ = try cache.load("a")
        let loaded = try cache.load(["a", "b", "c"])
        #expect(Set(loaded.keys) == ["a", "b", "c"])
        #expect(batches.withLock { $0 } == [["b", "c"]], "a was kept: one read of the others")
        cache.invalidate(["c"])
        // An answer from a load older than its account's invalidation is refused, the others kept.
        for (id, facts) in loaded { cache.remember(Self.answer(facts.facts), catalogRevision: 1, id, ticket: facts.ticket) }
        #expect(kept(cache, "a") && kept(cache, "b") && !kept(cache, "c"))
        _ = try cache.load(["a", "b", "c"])
        #expect(batches.withLock { $0 } == [["b", "c"], ["c"]], "b's facts were kept by the batch")
        #expect(try cache.load([]).isEmpty)
    }

    @Test func anAnswerHoldsForItsCatalogRevisionAndUntilItsListChanges() throws {
        let cache = Self.cache(Loader())
        let loaded = try cache.load("a")
        let answer = Self.answer(loaded.facts)
        cache.remember(answer, catalogRevision: 1, "a", ticket: loaded.ticket)
        #expect(cache.answer("a", publicationId: nil, catalogRevision: 2, now: Self.now) == nil)
        cache.remember(answer, catalogRevision: 1, "a", ticket: loaded.ticket)
        let until = answer.issuesStableUntil(publicationId: nil)
        #expect(until == .distantFuture || cache.answer("a", publicationId: nil, catalogRevision: 1, now: until) == nil)
        #expect(cache.answerStats.counts.misses >= 1)
    }
}

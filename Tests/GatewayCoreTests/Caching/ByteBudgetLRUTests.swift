@testable import GatewayConfiguration
@testable import GatewayCore
import TestSupport
import Testing

/// The byte-budgeted LRU on its own: the budget holds after every change, the least recently used
/// goes first, one at a time, and what cannot fit is not kept.
@Suite struct ByteBudgetLRUTests {
    typealias LRU = ByteBudgetLRU<Int, String>
    /// The cost of an entry declared as `bytes`.
    static func cost(_ bytes: Int) -> Int { bytes + LRU.entryOverhead }

    @Test func theBudgetIsNeverExceededAndBytesAddUp() {
        var rng = SplitMix64(seed: 7)
        var lru = LRU(budget: Self.cost(100) * 10)
        var declared: [Int: Int] = [:]
        for _ in 0..<5_000 {
            let key = Int(rng.next() % 64), bytes = Int(rng.next() % 300)
            if rng.next() % 5 == 0 {
                lru.removeValue(for: key)
            } else if lru.insert("v\(key)", for: key, bytes: bytes) {
                declared[key] = bytes
            }
            #expect(lru.bytes <= lru.budget)
            let kept = lru.keysOldestFirst
            #expect(lru.bytes == kept.reduce(0) { $0 + Self.cost(declared[$1]!) })
            #expect(kept.count == lru.count)
        }
        #expect(lru.counts.evictions > 0)
    }

    /// `insertEvicting` names what left to make room (its owner's side tables follow), and
    /// neither a replaced value nor the new one.
    @Test func insertEvictingGivesBackTheEvictedValuesOnly() {
        var lru = LRU(budget: Self.cost(10) * 3)
        for key in 1...3 { #expect(lru.insertEvicting("v\(key)", for: key, bytes: 10).isEmpty) }
        #expect(lru.insertEvicting("v2'", for: 2, bytes: 10).isEmpty, "a replaced value was not evicted")
        #expect(lru.insertEvicting("v4", for: 4, bytes: 10 + Self.cost(10)) == ["v1", "v3"])
        #expect(lru.keysOldestFirst == [2, 4])
    }

    @Test func theLeastRecentlyUsedGoesFirstOneAtATime() {
        var lru = LRU(budget: Self.cost(10) * 3)
        for key in 1...3 { lru.insert("v\(key)", for: key, bytes: 10) }
        let one = lru.value(for: 1)
        #expect(one == "v1", "1 is now the most recently used")
        lru.insert("v4", for: 4, bytes: 10)
        #expect(lru.keysOldestFirst == [3, 1, 4], "2 was the least recently used")
        #expect(lru.counts.evictions == 1)
        lru.insert("v5", for: 5, bytes: 10 + Self.cost(10))
        #expect(lru.keysOldestFirst == [4, 5], "as many as needed, oldest first")
        #expect(lru.counts.evictions == 3)
        #expect(lru.peek(4) == "v4")
        #expect(lru.keysOldestFirst == [4, 5], "peeking is not using")
    }

    @Test func anEntryLargerThanTheBudgetIsNotKept() {
        var lru = LRU(budget: Self.cost(100) * 3)
        lru.insert("small", for: 1, bytes: 10)
        lru.insert("old", for: 2, bytes: 10)
        let keptHuge = lru.insert("huge", for: 2, bytes: lru.budget - LRU.entryOverhead + 1)
        #expect(!keptHuge)
        #expect(lru.peek(2) == nil, "the older value of its key is not left behind")
        #expect(lru.peek(1) == "small", "and nothing else is evicted for it")
        #expect(lru.counts.rejected == 1 && lru.counts.evictions == 0)
    }

    @Test func hitsMissesAndStaleValuesAreCounted() {
        var lru = LRU(budget: 1 << 20)
        lru.insert("a", for: 1, bytes: 1)
        let hit = lru.value(for: 1), miss = lru.value(for: 2), stale = lru.value(for: 1) { $0 == "b" }
        #expect(hit == "a" && miss == nil)
        #expect(stale == nil, "no longer valid: dropped")
        #expect(lru.peek(1) == nil)
        #expect(lru.counts == CacheCounts(hits: 1, misses: 2, evictions: 0, rejected: 0))
        #expect(lru.bytes == 0 && lru.count == 0)
    }
}

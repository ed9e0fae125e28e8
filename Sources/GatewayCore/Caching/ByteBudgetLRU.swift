/// A map whose entries are counted in bytes and evicted least-recently-used, one at a time, so
/// that what it holds never exceeds its budget and never empties at once. Not thread-safe: an
/// owner keeps it in a `Mutex`.
///
/// Each entry costs the bytes its owner declares (what the value and key hold on the heap, see
/// `MemoryFootprint`) plus `entryOverhead`, the entry's share of this map's own tables. An entry
/// larger than the whole budget is not kept (and any older value of its key is dropped).
package struct ByteBudgetLRU<Key: Hashable, Value> {
    package let budget: Int
    package private(set) var bytes = 0
    package private(set) var counts = CacheCounts()
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var freeNodes: [Int] = []
    /// Most and least recently used node, `none` when empty.
    private var newest = none
    private var oldest = none

    private static var none: Int { -1 }

    private struct Node {
        var key: Key?
        var value: Value?
        var bytes: Int
        var newer: Int
        var older: Int
    }

    package init(budget: Int) {
        precondition(budget >= 0, "a budget is a number of bytes")
        self.budget = budget
    }

    /// A node in the list, and a slot of the key index counted twice: hash tables run between
    /// half and three-quarters full.
    package static var entryOverhead: Int {
        MemoryLayout<Node>.stride + 2 * (MemoryLayout<Key>.stride + MemoryLayout<Int>.stride)
    }

    package var count: Int { slots.count }

    /// The value, made the most recently used; counted as a hit or a miss.
    package mutating func value(for key: Key) -> Value? {
        guard let node = slots[key] else {
            counts.misses += 1
            return nil
        }
        counts.hits += 1
        moveToFront(node)
        return nodes[node].value
    }

    /// The value when it is still `valid`, made the most recently used; one that no longer is
    /// is dropped and counted as a miss.
    package mutating func value(for key: Key, where valid: (Value) -> Bool) -> Value? {
        if let node = slots[key], let value = nodes[node].value, !valid(value) {
            unlinkAndFree(node)
            counts.misses += 1
            return nil
        }
        return value(for: key)
    }

    /// The value without touching its recency or the counts.
    package func peek(_ key: Key) -> Value? { slots[key].flatMap { nodes[$0].value } }

    /// Keeps `value` for `key`, replacing any, and evicts from the least recently used end until
    /// the budget holds. `bytes` is what the entry holds beyond `entryOverhead`. False when the
    /// entry alone is larger than the budget: it is not kept.
    @discardableResult
    package mutating func insert(_ value: Value, for key: Key, bytes: Int) -> Bool {
        var ignored: [Value]?
        return insert(value, for: key, bytes: bytes, evicted: &ignored)
    }

    /// `insert`, giving back the values evicted to make room: for an owner whose own tables name
    /// its entries, so that what they hold leaves with the entries (and stays within the budget).
    package mutating func insertEvicting(_ value: Value, for key: Key, bytes: Int) -> [Value] {
        var evicted: [Value]? = []
        insert(value, for: key, bytes: bytes, evicted: &evicted)
        return evicted ?? []
    }

    @discardableResult
    private mutating func insert(_ value: Value, for key: Key, bytes: Int, evicted: inout [Value]?) -> Bool {
        let cost = bytes + Self.entryOverhead
        removeValue(for: key)
        guard cost <= budget else {
            counts.rejected += 1
            return false
        }
        let node: Int
        let fresh = Node(key: key, value: value, bytes: cost, newer: Self.none, older: Self.none)
        if let reused = freeNodes.popLast() {
            node = reused
            nodes[node] = fresh
        } else {
            node = nodes.count
            nodes.append(fresh)
        }
        slots[key] = node
        self.bytes += cost
        link(node)
        while self.bytes > budget, oldest != Self.none, oldest != node {
            counts.evictions += 1
            if evicted != nil, let old = nodes[oldest].value { evicted?.append(old) }
            unlinkAndFree(oldest)
        }
        return true
    }

    @discardableResult
    package mutating func removeValue(for key: Key) -> Value? {
        guard let node = slots[key] else { return nil }
        let value = nodes[node].value
        unlinkAndFree(node)
        return value
    }

    /// Forgets the entries whose value `matches` (a walk over every entry: for rare changes).
    package mutating func removeAll(where matches: (Value) -> Bool) {
        for (key, node) in slots where nodes[node].value.map(matches) ?? false {
            _ = removeValue(for: key)
        }
    }

    /// Forgets every entry (the counts of hits and misses stay).
    package mutating func removeAll() {
        slots.removeAll()
        nodes.removeAll()
        freeNodes.removeAll()
        bytes = 0
        newest = Self.none
        oldest = Self.none
    }

    /// Least recently used first (for tests and diagnostics).
    package var keysOldestFirst: [Key] {
        var keys: [Key] = []
        var node = oldest
        while node != Self.none {
            keys.append(nodes[node].key!)
            node = nodes[node].newer
        }
        return keys
    }

    private mutating func moveToFront(_ node: Int) {
        guard node != newest else { return }
        unlink(node)
        link(node)
    }

    private mutating func link(_ node: Int) {
        nodes[node].older = newest
        nodes[node].newer = Self.none
        if newest != Self.none { nodes[newest].newer = node }
        newest = node
        if oldest == Self.none { oldest = node }
    }

    private mutating func unlink(_ node: Int) {
        let (newer, older) = (nodes[node].newer, nodes[node].older)
        if newer != Self.none { nodes[newer].older = older } else { newest = older }
        if older != Self.none { nodes[older].newer = newer } else { oldest = newer }
    }

    private mutating func unlinkAndFree(_ node: Int) {
        unlink(node)
        if let key = nodes[node].key { slots[key] = nil }
        bytes -= nodes[node].bytes
        nodes[node] = Node(key: nil, value: nil, bytes: 0, newer: Self.none, older: Self.none)
        freeNodes.append(node)
    }
}

/// What a cache did since start, for `/metrics`.
package struct CacheCounts: Sendable, Equatable {
    package var hits = 0
    package var misses = 0
    package var evictions = 0
    /// Entries larger than the whole budget, not kept.
    package var rejected = 0
}

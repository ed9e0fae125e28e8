import IssueCatalog
import Wire

/// Builds issue lists, newest first, from publications' entitlements without sorting: each
/// publication's walk is already in list order. Several publications are walked into compact
/// runs first, then merged by (publishedAt descending, publication id ascending) — ties inside a
/// publication are by issue id descending, as walked — straight into the list.
/// Costs O(listed issues × publications that still have issues to list). Lists are written into
/// buffers allocated once at an upper bound of their length (no per-item append checks).
enum IssueListing {
    /// One publication's list, or (`publicationId == nil`) every publication's merged; an unknown
    /// publication has no issues. `publication` gives a publication's walk by number.
    static func list<P: ListedPublication>(_ catalog: EntitlementCatalog, publicationId: String?, entitledOnly: Bool,
                                           _ publication: (Int) -> P) -> [IssueEntitlement] {
        if let publicationId {
            guard let number = catalog.publicationNumbers[publicationId] else { return [] }
            return list(publication(number), entitledOnly: entitledOnly)
        }
        return list(catalog.publications.indices.map(publication), entitledOnly: entitledOnly)
    }

    /// Until when that list holds: the publication's own bound, or the earliest of all.
    static func stableUntil(_ catalog: EntitlementCatalog, publicationId: String?, _ until: (Int) -> Instant) -> Instant {
        if let publicationId {
            guard let number = catalog.publicationNumbers[publicationId] else { return .distantFuture }
            return until(number)
        }
        return catalog.publications.indices.map(until).min() ?? .distantFuture
    }

    static func list<P: ListedPublication>(_ p: P, entitledOnly: Bool) -> [IssueEntitlement] {
        let index = p.index
        return collect(p, entitledOnly: entitledOnly) { index.entitlement(at: $0, reasonBits: $1) }
    }

    static func list<P: ListedPublication>(_ publications: [P], entitledOnly: Bool) -> [IssueEntitlement] {
        if publications.count == 1 { return list(publications[0], entitledOnly: entitledOnly) }
        let runs = publications.map { p in
            let publishedAt = p.index.publishedAt
            return collect(p, entitledOnly: entitledOnly) {
                Entry(publishedAt: publishedAt[$0], position: Int32($0), bits: $1)
            }
        }
        let total = runs.reduce(0) { $0 + $1.count }
        let ranks = publications.map(\.index.idRank)
        let tables = publications.map(\.index.table)
        var next = [Int](repeating: 0, count: runs.count)
        var live = runs.indices.filter { !runs[$0].isEmpty }
        return [IssueEntitlement](unsafeUninitializedCapacity: total) { out, count in
            while !live.isEmpty {
                // The run whose head comes first, and the head it must give way to.
                var best = live[0], rival = -1
                for r in live.dropFirst() {
                    if Self.precedes(runs[r][next[r]], ranks[r], runs[best][next[best]], ranks[best]) {
                        rival = best; best = r
                    } else if rival < 0 || Self.precedes(runs[r][next[r]], ranks[r], runs[rival][next[rival]], ranks[rival]) {
                        rival = r
                    }
                }
                // Everything in the best run before the rival's head goes in one stretch (with no
                // rival, the rest of the run: `limit` is then unused).
                let run = runs[best], table = tables[best], start = table.issues.startIndex
                let (limit, rivalRank) = rival < 0 ? (run[run.count - 1], Int.max) : (runs[rival][next[rival]], ranks[rival])
                let rank = ranks[best]
                var i = next[best]
                repeat {
                    out.initializeElement(at: count, to: IssueEntitlement(table: table, position: start + Int(run[i].position),
                                                                         reasonBits: run[i].bits))
                    count += 1
                    i += 1
                } while i < run.count && (rival < 0 || Self.precedes(run[i], rank, limit, rivalRank))
                next[best] = i
                if i == run.count { live.removeAll { $0 == best } }
            }
        }
    }

    /// List order between issues of two publications (`rank`: of the publication's id).
    private static func precedes(_ a: Entry, _ aRank: Int, _ b: Entry, _ bRank: Int) -> Bool {
        a.publishedAt != b.publishedAt ? a.publishedAt > b.publishedAt : aRank < bRank
    }

    /// One listed issue before it is materialised.
    private struct Entry {
        var publishedAt: Int64
        var position: Int32
        var bits: UInt16
    }

    /// The walk of one publication, each item made by `make(position, reasonBits)`.
    private static func collect<T, P: ListedPublication>(_ p: P, entitledOnly: Bool,
                                   _ make: (Int, UInt16) -> T) -> [T] {
        let capacity = p.listCapacity(entitledOnly: entitledOnly)
        return [T](unsafeUninitializedCapacity: capacity) { out, count in
            p.forEachListed(entitledOnly: entitledOnly) { position, bits in
                precondition(count < capacity, "listCapacity is an upper bound")
                out.initializeElement(at: count, to: make(position, bits))
                count += 1
            }
        }
    }
}

/// What a list is walked from: the engine's entitlements in one publication, or the compact runs
/// a server keeps of them (`IssueListAnswer`).
protocol ListedPublication {
    var index: PublicationIndex { get }
    /// An upper bound of the list's length, so that it is allocated once.
    func listCapacity(entitledOnly: Bool) -> Int
    /// `body(position, reasonBits)` for visible issues (E16), newest first: the entitled ones, or all.
    func forEachListed(entitledOnly: Bool, _ body: (Int, UInt16) -> Void)
}

extension PublicationEntitlements: ListedPublication {
    /// An upper bound of the list's length, so that it is allocated once.
    func listCapacity(entitledOnly: Bool) -> Int {
        guard entitledOnly else { return visibleEnd }
        let runs = segments.reduce(0) { $0 + $1.range.count }
        return min(visibleEnd, runs + unlocked.count + purchased.count + SortedSearch.lowerBound(visibleEnd, in: index.freePositions))
    }
}

import IssueCatalog

/// Builds issue lists (newest first) from publications' entitlements: one publication is walked
/// straight into the list; several are walked into compact entries, merged pairwise by
/// (publishedAt descending, publication id ascending) — each walk is already in that order, with
/// ties inside a publication by issue id descending — and only then materialised.
enum IssueListing {
    static func list(_ p: PublicationEntitlements, entitledOnly: Bool) -> [IssueEntitlement] {
        var out: [IssueEntitlement] = []
        out.reserveCapacity(p.listCapacity(entitledOnly: entitledOnly))
        p.forEachListed(entitledOnly: entitledOnly) { position, bits in
            out.append(p.index.entitlement(at: position, reasonBits: bits))
        }
        return out
    }

    static func list(_ publications: [PublicationEntitlements], entitledOnly: Bool) -> [IssueEntitlement] {
        if publications.count == 1 { return list(publications[0], entitledOnly: entitledOnly) }
        var runs: [[Entry]] = publications.indices.map { source in
            let p = publications[source]
            var run: [Entry] = []
            run.reserveCapacity(p.listCapacity(entitledOnly: entitledOnly))
            p.forEachListed(entitledOnly: entitledOnly) { position, bits in
                run.append(Entry(publishedAt: p.index.publishedAt[position], rank: Int32(p.index.idRank),
                                 source: Int32(source), position: Int32(position), bits: bits))
            }
            return run
        }.filter { !$0.isEmpty }
        while runs.count > 1 {
            var next: [[Entry]] = []
            next.reserveCapacity((runs.count + 1) / 2)
            for i in stride(from: 0, to: runs.count, by: 2) {
                next.append(i + 1 < runs.count ? merge(runs[i], runs[i + 1]) : runs[i])
            }
            runs = next
        }
        guard let merged = runs.first else { return [] }
        var out: [IssueEntitlement] = []
        out.reserveCapacity(merged.count)
        for e in merged {
            out.append(publications[Int(e.source)].index.entitlement(at: Int(e.position), reasonBits: e.bits))
        }
        return out
    }

    /// One listed issue before it is materialised.
    struct Entry {
        var publishedAt: Int64
        var rank: Int32
        var source: Int32
        var position: Int32
        var bits: UInt16

        /// List order between entries of different publications.
        func precedes(_ other: Entry) -> Bool {
            publishedAt != other.publishedAt ? publishedAt > other.publishedAt : rank < other.rank
        }
    }

    private static func merge(_ a: [Entry], _ b: [Entry]) -> [Entry] {
        var out: [Entry] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if b[j].precedes(a[i]) { out.append(b[j]); j += 1 } else { out.append(a[i]); i += 1 }
        }
        out.append(contentsOf: a[i...])
        out.append(contentsOf: b[j...])
        return out
    }
}

extension PublicationEntitlements {
    /// An upper bound of the list's length, so that it is allocated once.
    func listCapacity(entitledOnly: Bool) -> Int {
        guard entitledOnly else { return visibleEnd }
        let runs = segments.reduce(0) { $0 + $1.range.count }
        return min(visibleEnd, runs + unlocked.count + purchased.count + SortedSearch.lowerBound(visibleEnd, in: index.freePositions))
    }
}

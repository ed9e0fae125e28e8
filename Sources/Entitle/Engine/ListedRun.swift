/// Consecutive listed positions of one publication that share their reasons, newest first
/// (`upper` ≥ `lower`, both included). Twelve bytes: an account's whole list is a few dozen.
struct ListedRun: Sendable, Equatable {
    var upper: Int32
    var lower: Int32
    var bits: UInt16

    var count: Int { Int(upper - lower) + 1 }
    var entitles: Bool { bits & IssueEntitlement.entitlingBits != 0 }
}

/// One publication's list as kept runs, walked like the engine's own (`ListedPublication`).
struct PublicationRuns: ListedPublication {
    let index: PublicationIndex
    let runs: ArraySlice<ListedRun>

    func listCapacity(entitledOnly: Bool) -> Int {
        runs.reduce(0) { $0 + (!entitledOnly || $1.entitles ? $1.count : 0) }
    }

    func forEachListed(entitledOnly: Bool, _ body: (Int, UInt16) -> Void) {
        for run in runs where !entitledOnly || run.entitles {
            for position in stride(from: Int(run.upper), through: Int(run.lower), by: -1) { body(position, run.bits) }
        }
    }

    /// The issue at `position` as listed, nil when it is not (not visible, E16). The runs are
    /// disjoint and newest first, so the one holding it is found by binary search.
    func listed(at position: Int) -> IssueEntitlement? {
        let p = Int32(position), start = runs.startIndex
        let i = start + SortedSearch.partition(runs.count) { runs[start + $0].lower > p }
        guard i < runs.endIndex, runs[i].upper >= p else { return nil }
        return index.entitlement(at: position, reasonBits: runs[i].bits)
    }
}

extension ListedPublication {
    /// The walk of every visible issue, joined into runs of equal reasons (newest first).
    func listedRuns(into runs: inout [ListedRun]) {
        let first = runs.count
        forEachListed(entitledOnly: false) { position, bits in
            let p = Int32(position)
            if runs.count > first, runs[runs.count - 1].lower == p + 1, runs[runs.count - 1].bits == bits {
                runs[runs.count - 1].lower = p
            } else {
                runs.append(ListedRun(upper: p, lower: p, bits: bits))
            }
        }
    }
}

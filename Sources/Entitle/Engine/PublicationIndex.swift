import IssueCatalog
import Wire

/// One publication's issues in (publishedAt, id) order, as the snapshot sorts them, with what
/// the engine searches kept in flat arrays: publication instants (binary search), and the
/// positions (0-based) of free (E15) and retracted (E16) issues, ascending.
struct PublicationIndex: Sendable {
    let id: String
    /// This publication's number in its `EntitlementCatalog`.
    let number: Int
    /// Rank of `id` among the catalog's publication ids, for ties across publications.
    let idRank: Int
    let table: IssueTable
    var issues: ArraySlice<Issue> { table.issues }
    let publishedAt: [Int64]
    let freePositions: [Int]
    let retractedPositions: [Int]

    init(id: String, number: Int, idRank: Int, issues: ArraySlice<Issue>) {
        self.id = id
        self.number = number
        self.idRank = idRank
        table = IssueTable(issues)
        publishedAt = issues.map(\.publishedAt.millisecondsSinceEpoch)
        freePositions = issues.indices.filter { issues[$0].free }.map { $0 - issues.startIndex }
        retractedPositions = issues.indices.filter { issues[$0].retractedAt != nil }.map { $0 - issues.startIndex }
    }

    var count: Int { publishedAt.count }
    func issue(at position: Int) -> Issue { issues[issues.startIndex + position] }
    /// What an issue list holds for the issue at a position.
    func entitlement(at position: Int, reasonBits: UInt16) -> IssueEntitlement {
        IssueEntitlement(table: table, position: issues.startIndex + position, reasonBits: reasonBits)
    }

    /// The first position whose issue is published at or after `t`.
    func lowerBound(_ t: Instant) -> Int {
        let key = t.millisecondsSinceEpoch
        return SortedSearch.partition(publishedAt.count) { publishedAt[$0] < key }
    }

    /// The first position whose issue is published after `t`: positions before it are visible at `t`.
    func upperBound(_ t: Instant) -> Int {
        let key = t.millisecondsSinceEpoch
        return SortedSearch.partition(publishedAt.count) { publishedAt[$0] <= key }
    }

    /// The position of a catalog issue, by binary search on its publication instant.
    func position(of issue: Issue) -> Int? {
        var position = lowerBound(issue.publishedAt)
        while position < count, publishedAt[position] == issue.publishedAt.millisecondsSinceEpoch {
            if self.issue(at: position).id == issue.id { return position }
            position += 1
        }
        return nil
    }
}

/// Binary search over sorted arrays.
enum SortedSearch {
    /// The first index in `0..<count` where `isBefore` turns false (it must be monotone).
    @inline(__always)
    static func partition(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if isBefore(mid) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    static func lowerBound(_ value: Int, in sorted: [Int]) -> Int {
        partition(sorted.count) { sorted[$0] < value }
    }

    static func contains(_ value: Int, in sorted: [Int]) -> Bool {
        let i = lowerBound(value, in: sorted)
        return i < sorted.count && sorted[i] == value
    }
}

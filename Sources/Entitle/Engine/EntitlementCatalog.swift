import Foundation
import IssueCatalog

/// What the engine precomputes from a catalog snapshot, once per snapshot: per publication, the
/// issues' publication instants as a flat array (for binary search) and the positions of free
/// issues (E15), so that evaluating an account never scans the catalog.
public final class EntitlementCatalog: Sendable {
    public let snapshot: CatalogSnapshot
    let publications: [String: PublicationIndex]
    /// Publication ids in catalog order, the order lists across publications are built in.
    let publicationOrder: [String]
    /// Per product, the publications it grants (E17: read from the snapshot, so a change of
    /// grants in the catalog changes every owner's entitlements).
    private let grantsByProduct: [String: [String]]

    public init(_ snapshot: CatalogSnapshot) {
        self.snapshot = snapshot
        var order: [String] = []
        var seen = Set<String>()
        for p in snapshot.publications where seen.insert(p.id).inserted { order.append(p.id) }
        for issue in snapshot.catalog.issues where seen.insert(issue.publicationId).inserted {
            order.append(issue.publicationId)
        }
        publicationOrder = order
        var index: [String: PublicationIndex] = [:]
        for id in order { index[id] = PublicationIndex(issues: snapshot.issues(of: id)) }
        publications = index
        grantsByProduct = Dictionary(snapshot.products.map { ($0.id, $0.grants) }, uniquingKeysWith: { _, last in last })
    }

    func grants(of productId: String) -> [String] { grantsByProduct[productId] ?? [] }

    func publication(_ id: String) -> PublicationIndex? { publications[id] }

    /// The prepared form of a snapshot, built on first use and kept while the snapshot is the
    /// latest one asked about (a snapshot is built once per catalog change and shared).
    public static func prepared(_ snapshot: CatalogSnapshot) -> EntitlementCatalog {
        lastPrepared.withLock { last in
            if let last, last.snapshot === snapshot { return last }
            let fresh = EntitlementCatalog(snapshot)
            last = fresh
            return fresh
        }
    }

    private static let lastPrepared = LockedBox<EntitlementCatalog?>(nil)
}

/// One publication's issues in (publishedAt, id) order, as the snapshot sorts them.
struct PublicationIndex: Sendable {
    let issues: ArraySlice<Issue>
    let publishedAt: [Int64]
    /// Positions (0-based, into `publishedAt`) of free issues, ascending (E15).
    let freePositions: [Int]

    init(issues: ArraySlice<Issue>) {
        self.issues = issues
        publishedAt = issues.map(\.publishedAt.millisecondsSinceEpoch)
        freePositions = issues.indices.filter { issues[$0].free }.map { $0 - issues.startIndex }
    }

    var count: Int { publishedAt.count }
    func issue(at position: Int) -> Issue { issues[issues.startIndex + position] }

    /// The first position whose issue is published at or after `t`.
    func lowerBound(_ t: Instant) -> Int {
        let key = t.millisecondsSinceEpoch
        var lo = 0, hi = publishedAt.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if publishedAt[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The first position whose issue is published after `t`: positions before it are visible at `t`.
    func upperBound(_ t: Instant) -> Int {
        let key = t.millisecondsSinceEpoch
        var lo = 0, hi = publishedAt.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if publishedAt[mid] <= key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// A value behind a lock, for the one piece of shared state (the prepared-catalog memo).
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

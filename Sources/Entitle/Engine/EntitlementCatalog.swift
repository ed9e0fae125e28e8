import IssueCatalog
import Synchronization

/// What the engine precomputes from a catalog snapshot, once per snapshot, so that evaluating an
/// account never scans the catalog and hashes a string only where one comes in from outside:
/// publications and products are interned to numbers (positions in the arrays below), each
/// product's grants are kept as publication numbers, and each publication's issues are indexed
/// for binary search (`PublicationIndex`).
public final class EntitlementCatalog: Sendable {
    public let snapshot: CatalogSnapshot
    /// By publication number: publications in catalog order, then those only issues name.
    let publications: [PublicationIndex]
    let publicationNumbers: [String: Int]
    /// By product number. E17: grants are read from the snapshot, so a change of grants in the
    /// catalog changes every owner's entitlements; grants of unknown publications are dropped.
    let products: [Product]
    let productGrants: [[Int]]
    /// Transactions name products by (store, store product id): E23, an App Store product `x` and
    /// a Play product `x` are two catalog products.
    let productNumbers: [StoreProductRef: Int]

    public init(_ snapshot: CatalogSnapshot) {
        self.snapshot = snapshot
        var ids: [String] = []
        var numbers: [String: Int] = [:]
        func intern(_ id: String) {
            if numbers[id] == nil { numbers[id] = ids.count; ids.append(id) }
        }
        snapshot.publications.forEach { intern($0.id) }
        snapshot.catalog.issues.forEach { intern($0.publicationId) }
        publicationNumbers = numbers
        // Ties in lists across publications are broken by publication id (`issues(publicationId:)`).
        let byId = ids.indices.sorted { ids[$0] < ids[$1] }
        var rank = [Int](repeating: 0, count: ids.count)
        for (r, number) in byId.enumerated() { rank[number] = r }
        publications = ids.indices.map {
            PublicationIndex(id: ids[$0], number: $0, idRank: rank[$0], issues: snapshot.issues(of: ids[$0]))
        }
        // The snapshot answers `product(_:storeProductId:)` with the last product of a store id:
        // so does this.
        var productNumbers: [StoreProductRef: Int] = [:]
        var products: [Product] = []
        for product in snapshot.products {
            if let n = productNumbers[product.storeRef] { products[n] = product } else {
                productNumbers[product.storeRef] = products.count
                products.append(product)
            }
        }
        self.products = products
        self.productNumbers = productNumbers
        productGrants = products.map { p in p.grants.compactMap { numbers[$0] } }
    }

    func publication(_ id: String) -> PublicationIndex? { publicationNumbers[id].map { publications[$0] } }

    /// The prepared form of a snapshot, built on first use and kept while the snapshot is among
    /// the last few asked about (a snapshot is built once per catalog change and shared; a few are
    /// kept so that callers alternating between snapshots, e.g. during a change, do not rebuild).
    public static func prepared(_ snapshot: CatalogSnapshot) -> EntitlementCatalog {
        lastPrepared.withLock { recent in
            if let i = recent.firstIndex(where: { $0.snapshot === snapshot }) {
                let hit = recent.remove(at: i)
                recent.append(hit)
                return hit
            }
            let fresh = EntitlementCatalog(snapshot)
            if recent.count >= preparedKept { recent.removeFirst() }
            recent.append(fresh)
            return fresh
        }
    }

    /// How many prepared snapshots `prepared(_:)` keeps, most recently used last.
    static let preparedKept = 4

    private static let lastPrepared = Mutex<[EntitlementCatalog]>([])
}

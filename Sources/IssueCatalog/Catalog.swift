/// Everything editors maintain: publications, products and issues, as plain values.
/// Build a `CatalogSnapshot` from it to ask questions fast.
public struct Catalog: Hashable, Sendable {
    public var publications: [Publication]
    public var products: [Product]
    public var issues: [Issue]

    public init(publications: [Publication] = [], products: [Product] = [], issues: [Issue] = []) {
        self.publications = publications; self.products = products; self.issues = issues
    }
}

extension Catalog {
    /// The catalog in its canonical order: publications and products by id, issues by publication,
    /// then `publishedAt`, then id. Stores and the folder reader answer in this order, so two
    /// catalogs holding the same things compare equal once normalised.
    public func normalized() -> Catalog {
        Catalog(publications: publications.sorted { $0.id < $1.id },
                products: products.sorted { $0.id < $1.id },
                issues: issues.sorted {
                    ($0.publicationId, $0.publishedAt, $0.id) < ($1.publicationId, $1.publishedAt, $1.id)
                })
    }
}

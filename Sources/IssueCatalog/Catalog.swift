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

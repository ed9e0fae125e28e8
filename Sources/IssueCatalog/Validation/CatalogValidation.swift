extension Catalog {
    /// Every value's own rules, then what only the whole catalog can tell: unique ids, issues of
    /// known publications, grants naming known publications, single-issue products naming an
    /// existing issue. Field paths are `publications[i]…`, `products[i]…`, `issues[i]…`.
    public func validate() throws(CatalogProblem) {
        let root = FieldPath()
        let publicationIds = try Self.validateEach(publications, at: root.field("publications"), key: \.id,
                                                   duplicate: { "publication \($0.id) is defined twice" }) {
            (publication, at) throws(CatalogProblem) in try publication.validate(at: at)
        }
        let issueRefs = try Self.validateEach(issues, at: root.field("issues"), key: \.ref,
                                              duplicate: { "issue \($0.id) appears twice in publication \($0.publicationId)" }) {
            (issue, at) throws(CatalogProblem) in
            try issue.validate(at: at)
            try Self.known(issue.publicationId, publicationIds, at: at.field("publicationId"))
        }
        _ = try Self.validateEach(products, at: root.field("products"), key: \.id,
                                  duplicate: { "product \($0.id) is defined twice" }) {
            (product, at) throws(CatalogProblem) in
            try product.validate(at: at)
            try product.validateReferences(publications: publicationIds, issues: issueRefs, at: at)
        }
        try Self.validateStoreProducts(products, at: root.field("products"))
    }

    /// (store, storeProductId) is unique (Vocabulary: Product): a store's transaction must name
    /// one catalog product. Reported at the second product's `storeProductId`.
    static func validateStoreProducts(_ products: [Product], at path: FieldPath) throws(CatalogProblem) {
        var seen: [StoreProductRef: String] = [:]
        for (index, product) in products.enumerated() {
            if let first = seen[product.storeRef] {
                throw path.index(index).field("storeProductId").problem(
                    "\(product.store.rawValue) product \(product.storeProductId) is already product \(first)")
            }
            seen[product.storeRef] = product.id
        }
    }

    /// Checks each item at `path[i]`, then refuses an item whose key was seen before (reported
    /// at `path[i].id`). Returns the keys.
    static func validateEach<Item, Key: Hashable>(
        _ items: [Item], at path: FieldPath, key: (Item) -> Key, duplicate: (Item) -> String,
        _ check: (Item, FieldPath) throws(CatalogProblem) -> Void
    ) throws(CatalogProblem) -> Set<Key> {
        var seen = Set<Key>()
        for (index, item) in items.enumerated() {
            let at = path.index(index)
            try check(item, at)
            guard seen.insert(key(item)).inserted else { throw at.field("id").problem(duplicate(item)) }
        }
        return seen
    }

    static func known(_ publicationId: String, _ known: Set<String>, at path: FieldPath) throws(CatalogProblem) {
        guard known.contains(publicationId) else { throw path.problem("names unknown publication \(publicationId)") }
    }
}

extension Product {
    /// Grants name known publications; a single-issue product names an existing issue (E14).
    public func validateReferences(publications: Set<String>, issues: Set<IssueRef>,
                                   at path: FieldPath = FieldPath()) throws(CatalogProblem) {
        for (index, grant) in grants.enumerated() {
            try Catalog.known(grant, publications, at: path.field("grants").index(index))
        }
        if let issue, !issues.contains(issue) {
            throw path.field("issue").problem("names unknown issue \(issue.issueId) of \(issue.publicationId)")
        }
    }
}

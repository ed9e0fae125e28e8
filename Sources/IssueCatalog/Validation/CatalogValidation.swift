extension Catalog {
    /// Every value's own rules, then what only the whole catalog can tell: unique ids, issues of
    /// known publications, grants naming known publications, single-issue products naming an
    /// existing issue. Field paths are `publications[i]…`, `products[i]…`, `issues[i]…`.
    public func validate() throws(CatalogProblem) {
        let root = FieldPath()
        var publicationIds = Set<String>()
        for (index, publication) in publications.enumerated() {
            let at = root.field("publications").index(index)
            try publication.validate(at: at)
            guard publicationIds.insert(publication.id).inserted else {
                throw at.field("id").problem("publication \(publication.id) is defined twice")
            }
        }
        var issueRefs = Set<IssueRef>()
        for (index, issue) in issues.enumerated() {
            let at = root.field("issues").index(index)
            try issue.validate(at: at)
            try Self.known(issue.publicationId, publicationIds, at: at.field("publicationId"))
            guard issueRefs.insert(issue.ref).inserted else {
                throw at.field("id").problem("issue \(issue.id) appears twice in publication \(issue.publicationId)")
            }
        }
        var productIds = Set<String>()
        for (index, product) in products.enumerated() {
            let at = root.field("products").index(index)
            try product.validate(at: at)
            guard productIds.insert(product.id).inserted else {
                throw at.field("id").problem("product \(product.id) is defined twice")
            }
            try product.validateReferences(publications: publicationIds, issues: issueRefs, at: at)
        }
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

import IssueCatalog
import Wire

/// Catalog operations. Every change bumps the catalog revision in the same transaction, so a
/// reader that sees the new revision also sees the change.
extension SQLiteStore {
    public func loadCatalog() throws(StoreError) -> Catalog {
        try read { c throws(StoreError) in try CatalogRows.load(c) }
    }

    public func catalogRevision() throws(StoreError) -> Int64 {
        try read { c throws(StoreError) in try CatalogRows.revision(c) }
    }

    public func importCatalog(_ catalog: Catalog) throws(StoreError) {
        try write { c throws(StoreError) in
            try c.run("DELETE FROM issue_assets")
            try c.run("DELETE FROM issues")
            try c.run("DELETE FROM products")
            try c.run("DELETE FROM publications")
            for publication in catalog.publications { try CatalogRows.upsert(publication, c) }
            for product in catalog.products { try CatalogRows.upsert(product, c) }
            for issue in catalog.issues {
                guard try CatalogRows.publicationExists(issue.publicationId, c) else {
                    throw .notFound("publication \(issue.publicationId) of issue \(issue.id)")
                }
                try CatalogRows.insert(issue, c)
            }
            try CatalogRows.bumpRevision(c)
        }
    }

    public func upsertPublication(_ publication: Publication) throws(StoreError) -> UpsertOutcome {
        try write { c throws(StoreError) in
            let existed = try CatalogRows.publicationExists(publication.id, c)
            try CatalogRows.upsert(publication, c)
            try CatalogRows.bumpRevision(c)
            return existed ? .updated : .created
        }
    }

    public func upsertProduct(_ product: Product) throws(StoreError) -> UpsertOutcome {
        try write { c throws(StoreError) in
            for grant in product.grants where try !CatalogRows.publicationExists(grant, c) {
                throw .notFound("publication \(grant) granted by product \(product.id)")
            }
            let existed = try c.queryFirst("SELECT 1 FROM products WHERE id = ?", [.text(product.id)]) { _ in true } ?? false
            try CatalogRows.upsert(product, c)
            try CatalogRows.bumpRevision(c)
            return existed ? .updated : .created
        }
    }

    public func insertIssue(_ issue: Issue) throws(StoreError) {
        try write { c throws(StoreError) in
            guard try CatalogRows.publicationExists(issue.publicationId, c) else {
                throw .notFound("publication \(issue.publicationId)")
            }
            guard try CatalogRows.issue(issue.ref, c) == nil else {
                throw .conflict("issue \(issue.id) exists in publication \(issue.publicationId)")
            }
            try CatalogRows.insert(issue, c)
            try CatalogRows.bumpRevision(c)
        }
    }

    @discardableResult
    public func updateIssue(_ issue: Issue) throws(StoreError) -> Issue {
        try write { c throws(StoreError) in
            guard try CatalogRows.issue(issue.ref, c) != nil else { throw CatalogRows.missing(issue.ref) }
            var republished = issue
            republished.retractedAt = nil  // E16: correcting an issue republishes it
            try CatalogRows.delete(issue.ref, c)
            try CatalogRows.insert(republished, c)
            try CatalogRows.bumpRevision(c)
            return republished
        }
    }

    @discardableResult
    public func retractIssue(_ ref: IssueRef, at instant: Instant) throws(StoreError) -> Issue {
        try write { c throws(StoreError) in
            guard var issue = try CatalogRows.issue(ref, c) else { throw CatalogRows.missing(ref) }
            guard issue.retractedAt == nil else { return issue }
            issue.retractedAt = instant
            try c.run("UPDATE issues SET retracted_at = ? WHERE publication_id = ? AND id = ?",
                      [.integer(instant.millisecondsSinceEpoch), .text(ref.publicationId), .text(ref.issueId)])
            try CatalogRows.bumpRevision(c)
            return issue
        }
    }
}

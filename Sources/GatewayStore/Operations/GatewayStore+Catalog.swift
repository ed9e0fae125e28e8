import IssueCatalog
import Wire

/// Catalog changes, each one unit of work that bumps the catalog revision, so a reader that sees
/// the new revision also sees the change.
extension GatewayStore {
    /// The catalog and its revision from one snapshot.
    public func storedCatalog() throws(StoreError) -> StoredCatalog {
        try read { tx throws(StoreError) in StoredCatalog(revision: try tx.catalogRevision(), catalog: try tx.catalog()) }
    }

    /// The whole catalog, every issue in every state (retracted and scheduled included).
    public func loadCatalog() throws(StoreError) -> Catalog {
        try read { tx throws(StoreError) in try tx.catalog() }
    }

    /// Grows by at least one with every committed catalog change; caches rebuild their
    /// `CatalogSnapshot` when it moves. Starts at 0 for an empty store.
    public func catalogRevision() throws(StoreError) -> Int64 {
        try read { tx throws(StoreError) in try tx.catalogRevision() }
    }

    /// Replaces the stored catalog with `catalog`: afterwards `loadCatalog()` returns exactly it
    /// (order aside). The caller validates it first.
    public func importCatalog(_ catalog: Catalog) throws(StoreError) {
        try write { tx throws(StoreError) in
            try tx.deleteCatalog()
            for publication in catalog.publications { try tx.save(publication) }
            for product in catalog.products { try tx.save(product) }
            for issue in catalog.issues {
                guard try tx.publicationExists(issue.publicationId) else {
                    throw .notFound("publication \(issue.publicationId) of issue \(issue.id)")
                }
                try tx.insert(issue)
            }
            try tx.bumpCatalogRevision()
        }
    }

    public func upsertPublication(_ publication: Publication) throws(StoreError) -> UpsertOutcome {
        try write { tx throws(StoreError) in
            let existed = try tx.publicationExists(publication.id)
            try tx.save(publication)
            try tx.bumpCatalogRevision()
            return existed ? .updated : .created
        }
    }

    /// `.notFound` when a grant names an unknown publication; `.conflict` when another product
    /// has its store and store product id.
    public func upsertProduct(_ product: Product) throws(StoreError) -> UpsertOutcome {
        try write { tx throws(StoreError) in
            for grant in product.grants where try !tx.publicationExists(grant) {
                throw .notFound("publication \(grant) granted by product \(product.id)")
            }
            // Vocabulary: (store, storeProductId) names one catalog product.
            if let other = try tx.productId(of: product.storeRef), other != product.id {
                throw .conflict("\(product.store.rawValue) product \(product.storeProductId) is already product \(other)")
            }
            let existed = try tx.productExists(product.id)
            try tx.save(product)
            try tx.bumpCatalogRevision()
            return existed ? .updated : .created
        }
    }

    /// `.conflict` if the id exists in that publication, `.notFound` if the publication does not.
    public func insertIssue(_ issue: Issue) throws(StoreError) {
        try write { tx throws(StoreError) in
            guard try tx.publicationExists(issue.publicationId) else {
                throw .notFound("publication \(issue.publicationId)")
            }
            guard try tx.issue(issue.ref) == nil else {
                throw .conflict("issue \(issue.id) exists in publication \(issue.publicationId)")
            }
            try tx.insert(issue)
            try tx.bumpCatalogRevision()
        }
    }

    /// Corrects or reschedules an existing issue; clears a retraction (republish, E16).
    /// Returns the stored issue. `.notFound` if it does not exist.
    @discardableResult
    public func updateIssue(_ issue: Issue) throws(StoreError) -> Issue {
        try write { tx throws(StoreError) in
            var republished = issue
            republished.retractedAt = nil  // E16: correcting an issue republishes it
            try Self.replace(republished, tx)
            return republished
        }
    }

    /// Sets `retractedAt` (E16) unless already retracted (the first retraction instant is kept).
    /// Returns the stored issue. `.notFound` if it does not exist.
    @discardableResult
    public func retractIssue(_ ref: IssueRef, at instant: Instant) throws(StoreError) -> Issue {
        try write { tx throws(StoreError) in
            guard var issue = try tx.issue(ref) else { throw Self.missing(ref) }
            guard issue.retractedAt == nil else { return issue }
            issue.retractedAt = instant
            try Self.replace(issue, tx)
            return issue
        }
    }

    private static func replace(_ issue: Issue, _ tx: any WriteTransaction) throws(StoreError) {
        guard try tx.deleteIssue(issue.ref) else { throw missing(issue.ref) }
        try tx.insert(issue)
        try tx.bumpCatalogRevision()
    }

    private static func missing(_ ref: IssueRef) -> StoreError {
        .notFound("issue \(ref.issueId) of publication \(ref.publicationId)")
    }
}

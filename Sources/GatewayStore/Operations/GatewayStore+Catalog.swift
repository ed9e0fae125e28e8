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
    /// (order aside). The caller validates it first; an issue of a publication the catalog lacks
    /// leaves the stored catalog as it was.
    @discardableResult
    public func importCatalog(_ catalog: Catalog) throws(StoreError) -> CatalogImport {
        let publications = Set(catalog.publications.map(\.id))
        if let orphan = catalog.issues.first(where: { !publications.contains($0.publicationId) }) {
            return .unknownPublication(of: orphan.ref)
        }
        return try write { tx throws(StoreError) in
            try tx.deleteCatalog()
            for publication in catalog.publications { try tx.save(publication) }
            for product in catalog.products { try tx.save(product) }
            for issue in catalog.issues where try !tx.insert(issue) {
                throw Self.broken("issue \(issue.id) of publication \(issue.publicationId) twice in an imported catalog")
            }
            try tx.bumpCatalogRevision()
            return .imported
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

    public func upsertProduct(_ product: Product) throws(StoreError) -> ProductUpsert {
        try write { tx throws(StoreError) in
            for grant in product.grants where try !tx.publicationExists(grant) {
                return .unknownPublication(grant)
            }
            // Vocabulary: (store, storeProductId) names one catalog product.
            if let other = try tx.productId(of: product.storeRef), other != product.id {
                return .storeProductTaken(by: other)
            }
            let existed = try tx.productExists(product.id)
            try tx.save(product)
            try tx.bumpCatalogRevision()
            return .saved(existed ? .updated : .created)
        }
    }

    /// Of two writers inserting one issue, one inserts and the other hears `.exists`.
    @discardableResult
    public func insertIssue(_ issue: Issue) throws(StoreError) -> IssueInsertion {
        try write { tx throws(StoreError) in
            guard try tx.publicationExists(issue.publicationId) else { return .unknownPublication }
            guard try tx.insert(issue) else { return .exists }
            try tx.bumpCatalogRevision()
            return .inserted
        }
    }

    /// Corrects or reschedules an existing issue; clears a retraction (republish, E16).
    /// Returns the stored issue; nil (nothing written) if it does not exist.
    @discardableResult
    public func updateIssue(_ issue: Issue) throws(StoreError) -> Issue? {
        try write { tx throws(StoreError) in
            var republished = issue
            republished.retractedAt = nil  // E16: correcting an issue republishes it
            return try Self.replace(republished, tx) ? republished : nil
        }
    }

    /// Sets `retractedAt` (E16) unless already retracted (the first retraction instant is kept).
    /// Returns the stored issue; nil if it does not exist.
    @discardableResult
    public func retractIssue(_ ref: IssueRef, at instant: Instant) throws(StoreError) -> Issue? {
        try write { tx throws(StoreError) in
            guard var issue = try tx.issue(ref) else { return nil }
            guard issue.retractedAt == nil else { return issue }
            issue.retractedAt = instant
            return try Self.replace(issue, tx) ? issue : nil
        }
    }

    /// False when there was no such issue (nothing written).
    private static func replace(_ issue: Issue, _ tx: any WriteTransaction) throws(StoreError) -> Bool {
        guard try tx.deleteIssue(issue.ref) else { return false }
        guard try tx.insert(issue) else { throw broken("issue \(issue.id) of publication \(issue.publicationId) after its deletion") }
        try tx.bumpCatalogRevision()
        return true
    }
}

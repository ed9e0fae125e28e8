import IssueCatalog

/// What `importCatalog` did: a catalog whose issue names a publication it lacks is not imported
/// (nothing written).
public enum CatalogImport: Sendable, Equatable {
    case imported
    case unknownPublication(of: IssueRef)
}

/// What `upsertProduct` did; nothing is written unless it is `.saved`.
public enum ProductUpsert: Sendable, Equatable {
    case saved(UpsertOutcome)
    /// The product grants a publication the catalog does not have.
    case unknownPublication(String)
    /// Another product has the same store and store product id (vocabulary: they name one product).
    case storeProductTaken(by: String)
}

/// What `insertIssue` did; nothing is written unless it is `.inserted`.
public enum IssueInsertion: Sendable, Equatable {
    case inserted
    case unknownPublication
    /// An issue with this id exists in the publication.
    case exists
}

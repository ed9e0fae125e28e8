import IssueCatalog

/// The catalog and its revision, read from one snapshot.
public struct StoredCatalog: Sendable, Equatable {
    public var revision: Int64
    public var catalog: Catalog

    public init(revision: Int64, catalog: Catalog) { self.revision = revision; self.catalog = catalog }
}

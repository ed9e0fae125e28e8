import Entitle
import IssueCatalog
import Wire

/// E36: what an issue's circulation is answered from, on one snapshot.
public struct CirculationFacts: Sendable {
    public var catalog: EntitlementCatalog
    public var evidence: [(accountId: String, item: CirculationEvidence)]
    public var downloads: [DownloadRecord]
    /// Every institution not deleted (E30).
    public var institutions: [Institution]
}

extension GatewayStore {
    /// Stores a batch of download records (each added to its pair's), in one unit of work.
    public func recordDownloads(_ batch: [DownloadRecord]) throws(StoreError) {
        guard !batch.isEmpty else { return }
        try write { tx throws(StoreError) in try tx.record(batch) }
    }

    /// The catalog, the evidence that may entitle `ref` at `asOf` and the issue's download
    /// records, read together; nil when the catalog has no such issue. The evidence is first
    /// made current: under the store's installed upkeep's catalog and policy
    /// (`CirculationUpkeep.ensureCurrent`), and for every account marked due (decision 96).
    public func circulationFacts(_ ref: IssueRef, asOf: Instant) throws(StoreError) -> CirculationFacts? {
        let upkeep = factsUpkeep?.upkeep(CirculationUpkeep.self)
        try upkeep?.ensureCurrent(self)
        try drainReportRows()
        return try read { tx throws(StoreError) -> CirculationFacts? in
            let catalog: EntitlementCatalog
            if let upkeep { catalog = try upkeep.catalog(tx) } else { catalog = EntitlementCatalog(CatalogSnapshot(try tx.catalog())) }
            guard let window = catalog.circulationWindow(of: ref, asOf: asOf) else { return nil }
            return CirculationFacts(catalog: catalog, evidence: try tx.circulationEvidence(publicationId: ref.publicationId, window: window),
                                    downloads: try tx.downloadRecords(of: ref), institutions: try tx.institutions())
        }
    }
}

/// A batch of accounts marked due with their reports' rows (E36, E37) computed on one snapshot,
/// and what they were computed from: each account's facts version and the catalog's revision, so
/// the unit of work that writes them can tell which are still those of the facts (decision 130).
public struct PreparedReportRows: Sendable {
    /// The accounts marked due on the snapshot, by id.
    public var accountIds: [String]
    /// Each stored account's facts version on the snapshot (none for an account not stored).
    public var factsVersions: [String: Int64]
    public var catalogRevision: Int64
    public var rows: any PreparedUpkeep

    public init(accountIds: [String], factsVersions: [String: Int64], catalogRevision: Int64, rows: any PreparedUpkeep) {
        self.accountIds = accountIds; self.factsVersions = factsVersions; self.catalogRevision = catalogRevision
        self.rows = rows
    }
}

import Wire

/// E30's rows: institutions by id; publications and networks each joined by `,` (neither a
/// publication id nor a CIDR range holds one).
extension RecordRows {
    public static let institutionColumns: SQL = """
        SELECT institution_id, name, publications, networks, start, end_at, created_at FROM institutions
        """

    public static func institution(_ row: some StoredRow) -> Institution {
        Institution(institutionId: row.text(0), name: row.text(1), publications: splitIds(row.text(2)),
                    networks: splitIds(row.text(3)), start: row.instant(4), end: row.optionalInstant(5),
                    createdAt: row.instant(6))
    }
}

extension SQLReading {
    /// Every institution, the first created first (E30's order among several that cover).
    public func institutions() throws(StoreError) -> [Institution] {
        try connection.query("\(RecordRows.institutionColumns) ORDER BY created_at, institution_id", RecordRows.institution)
    }

    public func institution(id: String) throws(StoreError) -> Institution? {
        try connection.queryFirst("\(RecordRows.institutionColumns) WHERE institution_id = \(id)", RecordRows.institution)
    }
}

extension SQLWriteTransaction {
    /// Inserts or replaces by id.
    public func save(_ institution: Institution) throws(StoreError) {
        try connection.run(.upsert(
            into: "institutions", key: ["institution_id": institution.institutionId],
            set: ["name": institution.name, "publications": RecordRows.joinIds(institution.publications),
                  "networks": RecordRows.joinIds(institution.networks), "start": institution.start,
                  "end_at": institution.end, "created_at": institution.createdAt]))
    }

    /// False when there was no such institution.
    public func deleteInstitution(id: String) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM institutions WHERE institution_id = \(id)") == 1
    }
}

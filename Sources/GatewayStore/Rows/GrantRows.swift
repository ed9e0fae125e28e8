import Entitle
import IssueCatalog
import Wire

/// E21's rows: grants, found by id, by `(source, external_id)` or by account.
extension RecordRows {
    public static let grantColumns: SQL = """
        SELECT grant_id, account_id, source, external_id, publications, start, end_at, revoked_at, note, created_at,
               issue_id FROM grants
        """

    public static func grant(_ row: some StoredRow) -> Grant {
        let publications = splitIds(row.text(4))
        return Grant(grantId: row.text(0), accountId: row.text(1), source: row.text(2), externalId: row.text(3),
                     publications: publications,
                     issue: row.optionalText(10).map { IssueRef(publicationId: publications.first ?? "", issueId: $0) },
                     start: row.instant(5), end: row.optionalInstant(6),
                     revokedAt: row.optionalInstant(7), note: row.optionalText(8), createdAt: row.instant(9))
    }
}

extension SQLReading {
    public func grants(ofAccount accountId: String) throws(StoreError) -> [Grant] {
        try connection.query("\(RecordRows.grantColumns) WHERE account_id = \(accountId) ORDER BY start, grant_id",
                             RecordRows.grant)
    }

    public func grant(id: String) throws(StoreError) -> Grant? {
        try connection.queryFirst("\(RecordRows.grantColumns) WHERE grant_id = \(id)", RecordRows.grant)
    }

    public func grant(source: String, externalId: String) throws(StoreError) -> Grant? {
        try connection.queryFirst("\(RecordRows.grantColumns) WHERE source = \(source) AND external_id = \(externalId)",
                                  RecordRows.grant)
    }
}

extension SQLWriteTransaction {
    public func insert(_ grant: Grant) throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO grants (grant_id, account_id, source, external_id, publications, start, end_at, revoked_at, note,
                                created_at, issue_id)
            VALUES (\(grant.grantId), \(grant.accountId), \(grant.source), \(grant.externalId),
                    \(RecordRows.joinIds(grant.publications)), \(grant.start), \(grant.end), \(grant.revokedAt),
                    \(grant.note), \(grant.createdAt), \(grant.issue?.issueId))
            ON CONFLICT DO NOTHING
            """) == 1
    }

    public func setRevoked(grantId: String, at instant: Instant) throws(StoreError) {
        try connection.run("UPDATE grants SET revoked_at = \(instant) WHERE grant_id = \(grantId) AND revoked_at IS NULL")
    }
}

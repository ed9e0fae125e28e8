import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// E21's rows: grants, found by id, by `(source, external_id)` or by account.
enum GrantRows {
    static let columns = """
        SELECT grant_id, account_id, source, external_id, publications, start, end_at, revoked_at, note, created_at,
               issue_id FROM grants
        """

    static func grant(_ row: PGRow) -> Grant {
        let publications = CatalogRows.split(row.text(4))
        return Grant(grantId: row.text(0), accountId: row.text(1), source: row.text(2), externalId: row.text(3),
                     publications: publications,
                     issue: row.optionalText(10).map { IssueRef(publicationId: publications.first ?? "", issueId: $0) },
                     start: row.instant(5), end: row.optionalInstant(6),
                     revokedAt: row.optionalInstant(7), note: row.optionalText(8), createdAt: row.instant(9))
    }
}

extension PostgresReading {
    func grants(ofAccount accountId: String) throws(StoreError) -> [Grant] {
        try connection.query(GrantRows.columns + " WHERE account_id = $1 ORDER BY start, grant_id", [.text(accountId)],
                             GrantRows.grant)
    }

    func grant(id: String) throws(StoreError) -> Grant? {
        try connection.queryFirst(GrantRows.columns + " WHERE grant_id = $1", [.text(id)], GrantRows.grant)
    }

    func grant(source: String, externalId: String) throws(StoreError) -> Grant? {
        try connection.queryFirst(GrantRows.columns + " WHERE source = $1 AND external_id = $2",
                                  [.text(source), .text(externalId)], GrantRows.grant)
    }
}

extension PostgresWriteTransaction {
    func insert(_ grant: Grant) throws(StoreError) {
        try connection.run("""
            INSERT INTO grants (grant_id, account_id, source, external_id, publications, start, end_at, revoked_at, note,
                                created_at, issue_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
            """, [.text(grant.grantId), .text(grant.accountId), .text(grant.source), .text(grant.externalId),
                  CatalogRows.join(grant.publications), .instant(grant.start), .optional(grant.end),
                  .optional(grant.revokedAt), .optional(grant.note), .instant(grant.createdAt),
                  .optional(grant.issue?.issueId)])
    }

    func setRevoked(grantId: String, at instant: Instant) throws(StoreError) {
        try connection.run("UPDATE grants SET revoked_at = $1 WHERE grant_id = $2 AND revoked_at IS NULL",
                           [.instant(instant), .text(grantId)])
    }
}

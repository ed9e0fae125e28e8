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

    static func grant(_ row: SQLiteRow) -> Grant {
        Grant(grantId: row.text(0), accountId: row.text(1), source: row.text(2), externalId: row.text(3),
              publications: CatalogRows.split(row.text(4)),
              issue: row.optionalText(10).map { IssueRef(publicationId: CatalogRows.split(row.text(4)).first ?? "", issueId: $0) },
              start: row.instant(5), end: row.optionalInstant(6),
              revokedAt: row.optionalInstant(7), note: row.optionalText(8), createdAt: row.instant(9))
    }
}

extension SQLiteReading {
    func grants(ofAccount accountId: String) throws(StoreError) -> [Grant] {
        try connection.query(GrantRows.columns + " WHERE account_id = ? ORDER BY start, grant_id", [.text(accountId)],
                             GrantRows.grant)
    }

    func grant(id: String) throws(StoreError) -> Grant? {
        try connection.queryFirst(GrantRows.columns + " WHERE grant_id = ?", [.text(id)], GrantRows.grant)
    }

    func grant(source: String, externalId: String) throws(StoreError) -> Grant? {
        try connection.queryFirst(GrantRows.columns + " WHERE source = ? AND external_id = ?",
                                  [.text(source), .text(externalId)], GrantRows.grant)
    }
}

extension SQLiteWriteTransaction {
    func insert(_ grant: Grant) throws(StoreError) {
        try connection.run("""
            INSERT INTO grants (grant_id, account_id, source, external_id, publications, start, end_at, revoked_at, note, created_at,
                                issue_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(grant.grantId), .text(grant.accountId), .text(grant.source), .text(grant.externalId),
                  CatalogRows.join(grant.publications), .integer(grant.start.millisecondsSinceEpoch),
                  .optional(grant.end?.millisecondsSinceEpoch), .optional(grant.revokedAt?.millisecondsSinceEpoch),
                  .optional(grant.note), .integer(grant.createdAt.millisecondsSinceEpoch), .optional(grant.issue?.issueId)])
    }

    func setRevoked(grantId: String, at instant: Instant) throws(StoreError) {
        try connection.run("UPDATE grants SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL",
                           [.integer(instant.millisecondsSinceEpoch), .text(grantId)])
    }
}

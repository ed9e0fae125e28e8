import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// E21's rows: grants, found by id, by `(source, external_id)` or by account.
extension PostgresReading {
    func grants(ofAccount accountId: String) throws(StoreError) -> [Grant] {
        try connection.query(RecordRows.grantColumns + " WHERE account_id = $1 ORDER BY start, grant_id", [.text(accountId)],
                             RecordRows.grant)
    }

    func grant(id: String) throws(StoreError) -> Grant? {
        try connection.queryFirst(RecordRows.grantColumns + " WHERE grant_id = $1", [.text(id)], RecordRows.grant)
    }

    func grant(source: String, externalId: String) throws(StoreError) -> Grant? {
        try connection.queryFirst(RecordRows.grantColumns + " WHERE source = $1 AND external_id = $2",
                                  [.text(source), .text(externalId)], RecordRows.grant)
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

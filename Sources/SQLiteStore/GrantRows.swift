import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// E21's rows: grants, found by id, by `(source, external_id)` or by account.
extension SQLiteReading {
    func grants(ofAccount accountId: String) throws(StoreError) -> [Grant] {
        try connection.query(RecordRows.grantColumns + " WHERE account_id = ? ORDER BY start, grant_id", [.text(accountId)],
                             RecordRows.grant)
    }

    func grant(id: String) throws(StoreError) -> Grant? {
        try connection.queryFirst(RecordRows.grantColumns + " WHERE grant_id = ?", [.text(id)], RecordRows.grant)
    }

    func grant(source: String, externalId: String) throws(StoreError) -> Grant? {
        try connection.queryFirst(RecordRows.grantColumns + " WHERE source = ? AND external_id = ?",
                                  [.text(source), .text(externalId)], RecordRows.grant)
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

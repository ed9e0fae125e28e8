import GatewayStore
import Wire

/// E22's rows: code batches, and codes by hash only.
extension PostgresReading {
    func codeBatch(id: String) throws(StoreError) -> CodeBatch? {
        try connection.queryFirst(RecordRows.batchColumns + " WHERE batch_id = $1", [.text(id)], RecordRows.batch)
    }

    func codes(ofBatch batchId: String) throws(StoreError) -> [AccessCode] {
        try connection.query(RecordRows.codeColumns + " WHERE batch_id = $1 ORDER BY code_hash", [.text(batchId)], RecordRows.code)
    }

    func code(hash: String) throws(StoreError) -> AccessCode? {
        try connection.queryFirst(RecordRows.codeColumns + " WHERE code_hash = $1", [.text(hash)], RecordRows.code)
    }
}

extension PostgresWriteTransaction {
    func insert(_ batch: CodeBatch, codeHashes: [String]) throws(StoreError) {
        try connection.run("""
            INSERT INTO code_batches (batch_id, publication_id, issue_id, duration, expires_at, created_at, revoked_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """, [.text(batch.batchId), .text(batch.publicationId), .optional(batch.issueId), .optional(batch.duration),
                  .optional(batch.expiresAt), .instant(batch.createdAt), .optional(batch.revokedAt)])
        for hash in codeHashes {
            try connection.run("INSERT INTO access_codes (code_hash, batch_id) VALUES ($1, $2)", [.text(hash), .text(batch.batchId)])
        }
    }

    func setRevoked(batchId: String, at instant: Instant) throws(StoreError) {
        try connection.run("UPDATE code_batches SET revoked_at = $1 WHERE batch_id = $2 AND revoked_at IS NULL",
                           [.instant(instant), .text(batchId)])
    }

    /// `redeemed_by IS NULL` in the UPDATE: of two processes redeeming one code, the second finds
    /// the row changed (a serialization failure, then on its next run no row to change).
    func markRedeemed(codeHash: String, by accountId: String, at instant: Instant) throws(StoreError) -> Bool {
        try connection.run("UPDATE access_codes SET redeemed_by = $1, redeemed_at = $2 WHERE code_hash = $3 AND redeemed_by IS NULL",
                           [.text(accountId), .instant(instant), .text(codeHash)]) == 1
    }
}

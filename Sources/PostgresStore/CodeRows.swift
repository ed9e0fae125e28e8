import GatewayStore
import Wire

/// E22's rows: code batches, and codes by hash only.
enum CodeRows {
    static let batchColumns = "SELECT batch_id, publication_id, issue_id, duration, expires_at, created_at, revoked_at FROM code_batches"
    static let codeColumns = "SELECT code_hash, batch_id, redeemed_by, redeemed_at FROM access_codes"

    static func batch(_ row: PGRow) -> CodeBatch {
        CodeBatch(batchId: row.text(0), publicationId: row.text(1), issueId: row.optionalText(2), duration: row.optionalText(3),
                  expiresAt: row.optionalInstant(4), createdAt: row.instant(5), revokedAt: row.optionalInstant(6))
    }

    static func code(_ row: PGRow) -> AccessCode {
        AccessCode(codeHash: row.text(0), batchId: row.text(1), redeemedBy: row.optionalText(2), redeemedAt: row.optionalInstant(3))
    }
}

extension PostgresReading {
    func codeBatch(id: String) throws(StoreError) -> CodeBatch? {
        try connection.queryFirst(CodeRows.batchColumns + " WHERE batch_id = $1", [.text(id)], CodeRows.batch)
    }

    func codes(ofBatch batchId: String) throws(StoreError) -> [AccessCode] {
        try connection.query(CodeRows.codeColumns + " WHERE batch_id = $1 ORDER BY code_hash", [.text(batchId)], CodeRows.code)
    }

    func code(hash: String) throws(StoreError) -> AccessCode? {
        try connection.queryFirst(CodeRows.codeColumns + " WHERE code_hash = $1", [.text(hash)], CodeRows.code)
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

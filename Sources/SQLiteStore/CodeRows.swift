import GatewayStore
import Wire

/// E22's rows: code batches, and codes by hash only.
enum CodeRows {
    static let batchColumns = "SELECT batch_id, publication_id, issue_id, duration, expires_at, created_at, revoked_at FROM code_batches"
    static let codeColumns = "SELECT code_hash, batch_id, redeemed_by, redeemed_at FROM access_codes"

    static func batch(_ row: SQLiteRow) -> CodeBatch {
        CodeBatch(batchId: row.text(0), publicationId: row.text(1), issueId: row.optionalText(2), duration: row.optionalText(3),
                  expiresAt: row.optionalInstant(4), createdAt: row.instant(5), revokedAt: row.optionalInstant(6))
    }

    static func code(_ row: SQLiteRow) -> AccessCode {
        AccessCode(codeHash: row.text(0), batchId: row.text(1), redeemedBy: row.optionalText(2), redeemedAt: row.optionalInstant(3))
    }
}

extension SQLiteReading {
    func codeBatch(id: String) throws(StoreError) -> CodeBatch? {
        try connection.queryFirst(CodeRows.batchColumns + " WHERE batch_id = ?", [.text(id)], CodeRows.batch)
    }

    func codes(ofBatch batchId: String) throws(StoreError) -> [AccessCode] {
        try connection.query(CodeRows.codeColumns + " WHERE batch_id = ? ORDER BY code_hash", [.text(batchId)], CodeRows.code)
    }

    func code(hash: String) throws(StoreError) -> AccessCode? {
        try connection.queryFirst(CodeRows.codeColumns + " WHERE code_hash = ?", [.text(hash)], CodeRows.code)
    }
}

extension SQLiteWriteTransaction {
    func insert(_ batch: CodeBatch, codeHashes: [String]) throws(StoreError) {
        try connection.run("""
            INSERT INTO code_batches (batch_id, publication_id, issue_id, duration, expires_at, created_at, revoked_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.text(batch.batchId), .text(batch.publicationId), .optional(batch.issueId), .optional(batch.duration),
                  .optional(batch.expiresAt?.millisecondsSinceEpoch), .integer(batch.createdAt.millisecondsSinceEpoch),
                  .optional(batch.revokedAt?.millisecondsSinceEpoch)])
        for hash in codeHashes {
            try connection.run("INSERT INTO access_codes (code_hash, batch_id) VALUES (?, ?)", [.text(hash), .text(batch.batchId)])
        }
    }

    func setRevoked(batchId: String, at instant: Instant) throws(StoreError) {
        try connection.run("UPDATE code_batches SET revoked_at = ? WHERE batch_id = ? AND revoked_at IS NULL",
                           [.integer(instant.millisecondsSinceEpoch), .text(batchId)])
    }

    func markRedeemed(codeHash: String, by accountId: String, at instant: Instant) throws(StoreError) -> Bool {
        try connection.run("UPDATE access_codes SET redeemed_by = ?, redeemed_at = ? WHERE code_hash = ? AND redeemed_by IS NULL",
                           [.text(accountId), .integer(instant.millisecondsSinceEpoch), .text(codeHash)]) == 1
    }
}

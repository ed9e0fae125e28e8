import GatewayStore
import Wire

/// E22's rows: code batches, and codes by hash only.
extension SQLiteReading {
    func codeBatch(id: String) throws(StoreError) -> CodeBatch? {
        try connection.queryFirst(RecordRows.batchColumns + " WHERE batch_id = ?", [.text(id)], RecordRows.batch)
    }

    func codes(ofBatch batchId: String) throws(StoreError) -> [AccessCode] {
        try connection.query(RecordRows.codeColumns + " WHERE batch_id = ? ORDER BY code_hash", [.text(batchId)], RecordRows.code)
    }

    func code(hash: String) throws(StoreError) -> AccessCode? {
        try connection.queryFirst(RecordRows.codeColumns + " WHERE code_hash = ?", [.text(hash)], RecordRows.code)
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

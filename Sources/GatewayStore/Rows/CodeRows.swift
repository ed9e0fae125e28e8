import Wire

/// E22's rows: code batches, and codes by hash only.
extension RecordRows {
    public static let batchColumns: SQL = """
        SELECT batch_id, publication_id, issue_id, duration, expires_at, created_at, revoked_at FROM code_batches
        """
    public static let codeColumns: SQL = "SELECT code_hash, batch_id, redeemed_by, redeemed_at FROM access_codes"

    public static func batch(_ row: some StoredRow) -> CodeBatch {
        CodeBatch(batchId: row.text(0), publicationId: row.text(1), issueId: row.optionalText(2), duration: row.optionalText(3),
                  expiresAt: row.optionalInstant(4), createdAt: row.instant(5), revokedAt: row.optionalInstant(6))
    }

    public static func code(_ row: some StoredRow) -> AccessCode {
        AccessCode(codeHash: row.text(0), batchId: row.text(1), redeemedBy: row.optionalText(2), redeemedAt: row.optionalInstant(3))
    }
}

extension SQLReading {
    public func codeBatch(id: String) throws(StoreError) -> CodeBatch? {
        try connection.queryFirst("\(RecordRows.batchColumns) WHERE batch_id = \(id)", RecordRows.batch)
    }

    public func codes(ofBatch batchId: String) throws(StoreError) -> [AccessCode] {
        try connection.query("\(RecordRows.codeColumns) WHERE batch_id = \(batchId) ORDER BY code_hash", RecordRows.code)
    }

    public func code(hash: String) throws(StoreError) -> AccessCode? {
        try connection.queryFirst("\(RecordRows.codeColumns) WHERE code_hash = \(hash)", RecordRows.code)
    }
}

extension SQLWriteTransaction {
    public func insert(_ batch: CodeBatch, codeHashes: [String]) throws(StoreError) {
        try connection.run("""
            INSERT INTO code_batches (batch_id, publication_id, issue_id, duration, expires_at, created_at, revoked_at)
            VALUES (\(batch.batchId), \(batch.publicationId), \(batch.issueId), \(batch.duration), \(batch.expiresAt),
                    \(batch.createdAt), \(batch.revokedAt))
            """)
        for hash in codeHashes {
            try connection.run("INSERT INTO access_codes (code_hash, batch_id) VALUES (\(hash), \(batch.batchId))")
        }
    }

    public func setRevoked(batchId: String, at instant: Instant) throws(StoreError) {
        try connection.run("UPDATE code_batches SET revoked_at = \(instant) WHERE batch_id = \(batchId) AND revoked_at IS NULL")
    }

    /// `redeemed_by IS NULL` in the UPDATE: of two processes redeeming one code, the second finds
    /// the row changed (a serialization failure, then on its next run no row to change).
    public func markRedeemed(codeHash: String, by accountId: String, at instant: Instant) throws(StoreError) -> Bool {
        try connection.run("""
            UPDATE access_codes SET redeemed_by = \(accountId), redeemed_at = \(instant)
            WHERE code_hash = \(codeHash) AND redeemed_by IS NULL
            """) == 1
    }
}

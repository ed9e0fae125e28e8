import Wire

/// E33's rows (`link_codes`): each code by its hash, used once.
extension SQLReading {
    /// The account of an unused code that has not expired at `instant`; nil when there is none.
    public func liveLinkCode(hash: String, at instant: Instant) throws(StoreError) -> String? {
        try connection.queryFirst("""
            SELECT account_id FROM link_codes WHERE code_hash = \(hash) AND used_at IS NULL AND expires_at > \(instant)
            """) { $0.text(0) }
    }
}

extension SQLWriteTransaction {
    public func insert(_ code: LinkCode) throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO link_codes (code_hash, account_id, created_at, expires_at, used_at)
            VALUES (\(code.codeHash), \(code.accountId), \(code.createdAt), \(code.expiresAt), \(code.usedAt))
            ON CONFLICT DO NOTHING
            """) == 1
    }

    /// Uses an unused, unexpired code up; false when there is none. `used_at IS NULL` in the
    /// UPDATE makes it single use across processes too.
    public func useLinkCode(hash: String, at instant: Instant) throws(StoreError) -> Bool {
        try connection.run("""
            UPDATE link_codes SET used_at = \(instant) WHERE code_hash = \(hash) AND used_at IS NULL AND expires_at > \(instant)
            """) == 1
    }
}

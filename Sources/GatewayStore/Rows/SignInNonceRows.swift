import Wire

/// readers.md E31's `sign_in_nonces`: a nonce is found by its hash only. Using one up is one
/// conditional update, so two sign-ins presenting it at once cannot both use it: SQLite runs one
/// writer at a time, and on PostgreSQL (`REPEATABLE READ`) the later update of the row fails with
/// a serialization failure and runs again on a fresh snapshot, where the row is used.
extension SQLReading {
    public func signInNonceIsLive(hash: String, now: Instant) throws(StoreError) -> Bool {
        try connection.queryFirst("""
            SELECT 1 FROM sign_in_nonces WHERE nonce_hash = \(hash) AND expires_at > \(now) AND used_at IS NULL
            """) { _ in true } ?? false
    }
}

extension SQLWriteTransaction {
    public func insertSignInNonce(hash: String, expiresAt: Instant, now: Instant) throws(StoreError) {
        try connection.run("DELETE FROM sign_in_nonces WHERE expires_at <= \(now)")
        try connection.run("INSERT INTO sign_in_nonces (nonce_hash, expires_at) VALUES (\(hash), \(expiresAt))")
    }

    public func useSignInNonce(hash: String, now: Instant) throws(StoreError) -> Bool {
        try connection.run("""
            UPDATE sign_in_nonces SET used_at = \(now)
            WHERE nonce_hash = \(hash) AND expires_at > \(now) AND used_at IS NULL
            """) > 0
    }
}

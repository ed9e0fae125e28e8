import Wire

/// E31/E32's rows (`identities`): one per (provider, subject), held by one account, found by key,
/// by account or by the kept email (support's lookup).
extension RecordRows {
    public static let identityColumns: SQL = """
        SELECT provider, subject, account_id, email, email_verified, is_private_email, real_user_status, created_at
        FROM identities
        """

    public static func identity(_ row: some StoredRow) -> Identity {
        Identity(key: IdentityKey(provider: row.text(0), subject: row.text(1)), accountId: row.text(2),
                 email: row.optionalText(3), emailVerified: row.isNull(4) ? nil : row.bool(4),
                 isPrivateEmail: row.isNull(5) ? nil : row.bool(5), realUserStatus: row.optionalInt(6),
                 createdAt: row.instant(7))
    }
}

extension SQLReading {
    public func identity(_ key: IdentityKey) throws(StoreError) -> Identity? {
        try connection.queryFirst("""
            \(RecordRows.identityColumns) WHERE provider = \(key.provider) AND subject = \(key.subject)
            """, RecordRows.identity)
    }

    public func identities(ofAccount accountId: String) throws(StoreError) -> [Identity] {
        try connection.query("\(RecordRows.identityColumns) WHERE account_id = \(accountId) ORDER BY provider, subject",
                             RecordRows.identity)
    }

    public func identities(email: String) throws(StoreError) -> [Identity] {
        try connection.query("""
            \(RecordRows.identityColumns) WHERE lower(email) = \(email.lowercased()) ORDER BY account_id, provider, subject
            """, RecordRows.identity)
    }
}

extension SQLWriteTransaction {
    /// Inserts, or replaces the claims of the identity (never its account, never its creation).
    public func save(_ identity: Identity) throws(StoreError) {
        try connection.run("""
            INSERT INTO identities (provider, subject, account_id, email, email_verified, is_private_email,
                                    real_user_status, created_at)
            VALUES (\(identity.key.provider), \(identity.key.subject), \(identity.accountId), \(identity.email),
                    \(identity.emailVerified), \(identity.isPrivateEmail), \(identity.realUserStatus), \(identity.createdAt))
            ON CONFLICT (provider, subject) DO UPDATE SET email = \(identity.email),
                email_verified = \(identity.emailVerified), is_private_email = \(identity.isPrivateEmail),
                real_user_status = \(identity.realUserStatus)
            """)
    }

    public func deleteIdentity(_ key: IdentityKey) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM identities WHERE provider = \(key.provider) AND subject = \(key.subject)") > 0
    }

    /// The sessions signed in with `key` that are not ended, ended at `instant`; their ids.
    public func endSessions(madeWith key: IdentityKey, at instant: Instant) throws(StoreError) -> [String] {
        let ids = try connection.query("""
            SELECT session_id FROM sessions
            WHERE identity_provider = \(key.provider) AND identity_subject = \(key.subject) AND ended_at IS NULL
            ORDER BY session_id
            """) { $0.text(0) }
        for id in ids { _ = try endSession(id: id, at: instant) }
        return ids
    }
}

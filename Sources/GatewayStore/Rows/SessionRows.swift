import Wire

/// E34's rows (`sessions`): one per device's bearer secret, found by the secret's hash, by id or
/// by account. A session ends by its `ended_at` (or by idleness, which the reader judges); an
/// ending is announced to other processes (`StoreChange.session`) so their resolutions go.
extension RecordRows {
    public static let sessionColumns: SQL = """
        SELECT session_id, account_id, token_hash, device_id, device_name, device_platform, identity_provider,
               identity_subject, created_at, last_used_at, ended_at FROM sessions
        """

    public static func session(_ row: some StoredRow) -> Session {
        let identity = row.optionalText(6).map { IdentityKey(provider: $0, subject: row.optionalText(7) ?? "") }
        return Session(id: row.text(0), accountId: row.text(1), tokenHash: row.text(2),
                       device: SessionDevice(id: row.optionalText(3), name: row.optionalText(4), platform: row.optionalText(5)),
                       identity: identity, createdAt: row.instant(8), lastUsedAt: row.instant(9),
                       endedAt: row.optionalInstant(10))
    }
}

extension SQLReading {
    public func session(tokenHash: String) throws(StoreError) -> Session? {
        try connection.queryFirst("\(RecordRows.sessionColumns) WHERE token_hash = \(tokenHash)", RecordRows.session)
    }

    public func session(id: String) throws(StoreError) -> Session? {
        try connection.queryFirst("\(RecordRows.sessionColumns) WHERE session_id = \(id)", RecordRows.session)
    }

    public func liveSessions(ofAccount accountId: String, idleCutoff: Instant) throws(StoreError) -> [Session] {
        try connection.query("""
            \(RecordRows.sessionColumns)
            WHERE account_id = \(accountId) AND ended_at IS NULL AND last_used_at >= \(idleCutoff)
            ORDER BY created_at, session_id
            """, RecordRows.session)
    }
}

extension SQLWriteTransaction {
    public func insert(_ session: Session) throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO sessions (session_id, account_id, token_hash, device_id, device_name, device_platform,
                                  identity_provider, identity_subject, created_at, last_used_at, ended_at)
            VALUES (\(session.id), \(session.accountId), \(session.tokenHash), \(session.device.id), \(session.device.name),
                    \(session.device.platform), \(session.identity?.provider), \(session.identity?.subject),
                    \(session.createdAt), \(session.lastUsedAt), \(session.endedAt))
            ON CONFLICT DO NOTHING
            """) == 1
    }

    public func endSession(id: String, at instant: Instant) throws(StoreError) -> Bool {
        guard try connection.run("UPDATE sessions SET ended_at = \(instant) WHERE session_id = \(id) AND ended_at IS NULL") == 1
        else { return false }
        try hooks.recordChange(.session(sessionId: id))
        return true
    }

    /// E34: writes the account's row without changing it, so that two units of work placing a
    /// session on one account cannot both count its live sessions before the other's commit
    /// (PostgreSQL refuses the second as a concurrent update and the store runs it again; SQLite's
    /// one writer serializes them anyway).
    public func lockSessionPlaces(ofAccount accountId: String) throws(StoreError) {
        try connection.run("UPDATE accounts SET merged_at = merged_at WHERE id = \(accountId)")
    }

    /// One statement a chunk (`SQLRowChunks`): a publication morning moves every reader's session
    /// at once. `UPDATE … FROM (VALUES …)` on both backends; the VALUES columns are `column1…3` on
    /// both, the instants cast so that PostgreSQL compares them as numbers.
    public func touch(_ touches: [SessionTouch]) throws(StoreError) -> Int {
        var moved = 0
        for chunk in SQLRowChunks.chunks(touches) {
            let rows = SQLRowChunks.values(chunk) { touch in
                "\(touch.sessionId), CAST(\(touch.at) AS BIGINT), CAST(\(touch.ifUnusedSince) AS BIGINT)"
            }
            moved += try connection.run("""
                UPDATE sessions SET last_used_at = v.column2 FROM (VALUES \(rows)) AS v
                WHERE sessions.session_id = v.column1 AND sessions.ended_at IS NULL AND sessions.last_used_at <= v.column3
                """)
        }
        return moved
    }
}

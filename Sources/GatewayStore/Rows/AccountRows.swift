import Wire

/// Accounts (with their facts version) and API keys. Secrets never reach the store: only hashes.
extension RecordRows {
    public static let accountColumns: SQL = """
        SELECT id, token_hash, app_account_token, created_at, merged_into, merged_at FROM accounts
        """
    public static let keyColumns: SQL = "SELECT key_id, role, publications, secret_hash, created_at FROM api_keys"

    public static func account(_ row: some StoredRow) -> Account {
        Account(id: row.text(0), tokenHash: row.text(1), appAccountToken: row.optionalText(2), createdAt: row.instant(3),
                mergedInto: row.optionalText(4), mergedAt: row.optionalInstant(5))
    }

    public static func apiKey(_ row: some StoredRow) throws(StoreError) -> APIKey {
        APIKey(keyId: row.text(0), role: try row.decode(APIKey.Role.self, 1, of: row.text(0)),
               publications: splitIds(row.text(2)), secretHash: row.text(3), createdAt: row.instant(4))
    }
}

extension SQLReading {
    public func account(id: String) throws(StoreError) -> Account? { try findAccount(where: "id", equals: id) }

    public func account(tokenHash: String) throws(StoreError) -> Account? {
        try findAccount(where: "token_hash", equals: tokenHash)
    }

    public func account(appAccountToken: String) throws(StoreError) -> Account? {
        try findAccount(where: "app_account_token", equals: appAccountToken)
    }

    /// E32: the account `accountId` reaches now: itself, or the account it was merged into
    /// (following a chain of merges); nil when no account with that id exists at the chain's end.
    public func reachedAccount(id accountId: String) throws(StoreError) -> Account? {
        var account = try self.account(id: accountId)
        var seen: Set<String> = [accountId]
        while let next = account?.mergedInto {
            // A cycle cannot be written (a merge target is never merged); refused if ever read.
            guard seen.insert(next).inserted else { throw .failed }
            account = try self.account(id: next)
        }
        return account
    }

    /// E35: a deleted account is found by nothing.
    private func findAccount(where column: StaticString, equals value: String) throws(StoreError) -> Account? {
        try connection.queryFirst("""
            \(RecordRows.accountColumns) WHERE \(literal: column) = \(value) AND deleted_at IS NULL
            """, RecordRows.account)
    }

    public func factsVersion(ofAccount accountId: String) throws(StoreError) -> Int64 {
        try connection.queryFirst("SELECT facts_version FROM accounts WHERE id = \(accountId)") { $0.int64(0) } ?? 0
    }

    public func apiKey(secretHash: String) throws(StoreError) -> APIKey? {
        try connection.queryFirst("\(RecordRows.keyColumns) WHERE secret_hash = \(secretHash)") {
            row throws(StoreError) in try RecordRows.apiKey(row)
        }
    }

    public func apiKeys() throws(StoreError) -> [APIKey] {
        try connection.query("\(RecordRows.keyColumns) ORDER BY key_id") { row throws(StoreError) in try RecordRows.apiKey(row) }
    }
}

extension SQLWriteTransaction {
    public func insert(_ account: Account) throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO accounts (id, token_hash, app_account_token, created_at)
            VALUES (\(account.id), \(account.tokenHash), \(account.appAccountToken), \(account.createdAt))
            ON CONFLICT DO NOTHING
            """) == 1
    }

    /// Returns the version it raised to (0 for no such account).
    @discardableResult
    public func bumpFactsVersion(ofAccount accountId: String) throws(StoreError) -> Int64 {
        try hooks.recordChange(.accountFacts(accountId: accountId))
        let bump: SQL = "UPDATE accounts SET facts_version = facts_version + 1 WHERE id = \(accountId) RETURNING facts_version"
        let version: Int64?
        switch connection.dialect {
        case .postgres:
            // One round trip for the bump and the mark (E36, E37: derived after this unit of
            // work). The mark reads the bump, so the account row is locked before the mark's,
            // as in the two statements SQLite runs.
            version = try connection.queryFirst("""
                WITH bumped AS (\(bump)),
                marked AS (INSERT INTO report_rows_due (account_id, marks)
                           SELECT \(accountId), 1 FROM (SELECT count(*) FROM bumped) AS done\(RecordRows.reportRowsMarkedAgain))
                SELECT facts_version FROM bumped
                """) { $0.int64(0) }
        case .sqlite:
            version = try connection.queryFirst(bump) { $0.int64(0) }
            try markReportRowsDue(ofAccounts: [accountId])
        }
        guard let version else { return 0 }
        hooks.accountRowLocked(accountId)
        return version
    }

    public func insert(_ key: APIKey) throws(StoreError) -> Bool {
        guard try connection.run("""
            INSERT INTO api_keys (key_id, role, publications, secret_hash, created_at)
            VALUES (\(key.keyId), \(key.role.rawValue), \(RecordRows.joinIds(key.publications)), \(key.secretHash),
                    \(key.createdAt))
            ON CONFLICT DO NOTHING
            """) == 1 else { return false }
        try hooks.recordChange(.apiKey(keyId: key.keyId))
        return true
    }

    public func deleteAPIKey(keyId: String) throws(StoreError) -> Bool {
        guard try connection.run("DELETE FROM api_keys WHERE key_id = \(keyId)") > 0 else { return false }
        try hooks.recordChange(.apiKey(keyId: keyId))
        return true
    }
}

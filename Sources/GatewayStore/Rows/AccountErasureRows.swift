import Wire

/// readers.md E35's erasure, row by row: what identifies the reader goes, the store transactions
/// stay under no account, the account row stays (its history and grants refer to it) marked
/// deleted under a token hash no secret has (a SHA-256 in hex never contains `:`).
extension SQLWriteTransaction {
    public func eraseReaderIdentity(ofAccount accountId: String) throws(StoreError) {
        for table in ["devices", "sessions", "identities", "link_codes"] {
            try connection.run("DELETE FROM \(raw: table) WHERE account_id = \(accountId)")
        }
        try eraseDownloadRecords(ofAccount: accountId)
        try connection.run("""
            UPDATE accounts SET token_hash = \("deleted:" + accountId), app_account_token = NULL WHERE id = \(accountId)
            """)
        try freeAppAccountTokens(mergedInto: accountId)
    }

    /// readers.md, Deletion: the appAccountTokens of accounts merged into a deleted one (along
    /// every chain of merges) are freed, as the deleted account's own is.
    private func freeAppAccountTokens(mergedInto accountId: String) throws(StoreError) {
        var reached = [accountId]
        var seen: Set<String> = [accountId]
        while let target = reached.popLast() {
            let merged = try connection.query("SELECT id FROM accounts WHERE merged_into = \(target)") { $0.text(0) }
            try connection.run("UPDATE accounts SET app_account_token = NULL WHERE merged_into = \(target)")
            for id in merged where seen.insert(id).inserted { reached.append(id) }
        }
    }

    public func releaseOwnership(ofAccount accountId: String) throws(StoreError) {
        try connection.run("DELETE FROM owners WHERE account_id = \(accountId)")
    }

    public func endGrants(ofAccount accountId: String, at instant: Instant) throws(StoreError) {
        try connection.run("UPDATE grants SET revoked_at = \(instant) WHERE account_id = \(accountId) AND revoked_at IS NULL")
        try connection.run("UPDATE grants SET note = NULL WHERE account_id = \(accountId)")
    }

    public func deleteInstitutionAccounts(ofAccount accountId: String) throws(StoreError) {
        try connection.run("DELETE FROM institution_accounts WHERE account_id = \(accountId)")
    }

    public func replaceHistoryDetails(sequence: Int64, details: JSONObject) throws(StoreError) {
        try connection.run("""
            UPDATE history_events SET details = \(HistoryDetailsText.compact(JSONValue.object(details).serialized)) WHERE sequence = \(sequence)
            """)
    }

    public func markAccountDeleted(_ accountId: String, at instant: Instant) throws(StoreError) {
        try hooks.recordChange(.accountEnded(accountId: accountId))
        try connection.run("UPDATE accounts SET deleted_at = \(instant) WHERE id = \(accountId)")
    }
}

extension SQLReading {
    public func institutionAccounts(ofAccount accountId: String) throws(StoreError) -> [InstitutionAccount] {
        try connection.query("""
            \(RecordRows.institutionAccountColumns) WHERE account_id = \(accountId) ORDER BY first_seen, institution_id
            """, RecordRows.institutionAccount)
    }
}

import Wire

/// E32's merge at the row level: what an account holds, moved to another account.
extension RecordRows {
    /// Every table whose rows an account holds through one column and that a merge moves to the
    /// account merged into, as (table, column). Download records, whose pairs may meet, are merged
    /// apart (`moveDownloadRecords`).
    public static let rowsMovedByMerge: [(table: String, column: String)] = [
        ("owners", "account_id"),           // subscriptions and purchases (E4)
        ("grants", "account_id"),           // grants and print claims (E21, E29); (source, external_id) is unique
        ("devices", "account_id"),          // push tokens
        ("access_codes", "redeemed_by"),    // redeemed codes (E22)
    ]
}

extension SQLWriteTransaction {
    /// Moves every row `from` holds in `RecordRows.rowsMovedByMerge` to `into`.
    public func moveMergedRows(from: String, into: String) throws(StoreError) {
        for (table, column) in RecordRows.rowsMovedByMerge {
            try connection.run("UPDATE \(raw: table) SET \(raw: column) = \(into) WHERE \(raw: column) = \(from)")
        }
    }

    /// Marks `accountId` merged into `into` at `instant`; false when it was already merged.
    public func setMerged(_ accountId: String, into: String, at instant: Instant) throws(StoreError) -> Bool {
        try connection.run("""
            UPDATE accounts SET merged_into = \(into), merged_at = \(instant) WHERE id = \(accountId) AND merged_into IS NULL
            """) == 1
    }

    /// Ends every session of the account not ended yet; their ids.
    public func endSessions(ofAccount accountId: String, at instant: Instant) throws(StoreError) -> [String] {
        let ids = try connection.query("""
            SELECT session_id FROM sessions WHERE account_id = \(accountId) AND ended_at IS NULL ORDER BY session_id
            """) { $0.text(0) }
        for id in ids { _ = try endSession(id: id, at: instant) }
        return ids
    }

    /// Ends the account's unused link codes (E32: a merged account's codes end).
    public func endLinkCodes(ofAccount accountId: String, at instant: Instant) throws(StoreError) {
        try connection.run("UPDATE link_codes SET used_at = \(instant) WHERE account_id = \(accountId) AND used_at IS NULL")
    }
}

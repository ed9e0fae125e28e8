/// `report_rows_due`: the accounts whose reports' rows (E36, E37) are to be derived again from
/// their facts, marked in the unit of work that changed the facts, so a crash between its commit
/// and the derivation loses nothing (decision 96).
extension RecordRows {
    /// A mark written on an account marked already counts one more.
    static let reportRowsMarkedAgain: SQL = " ON CONFLICT (account_id) DO UPDATE SET marks = report_rows_due.marks + 1"
}

extension SQLReading {
    public func reportRowsDue(limit: Int) throws(StoreError) -> [String] {
        try connection.query("SELECT account_id FROM report_rows_due ORDER BY account_id LIMIT \(limit)") { $0.text(0) }
    }
}

extension SQLWriteTransaction {
    /// The mark is an upsert that writes the row even when it is there: on PostgreSQL that row
    /// lock orders it after a drain holding the mark, so a change committed while its account is
    /// being derived is marked again, never lost with the mark the drain clears.
    public func markReportRowsDue(ofAccounts accountIds: [String]) throws(StoreError) {
        for accountId in accountIds {
            try connection.run("""
                INSERT INTO report_rows_due (account_id, marks) VALUES (\(accountId), 1)\(RecordRows.reportRowsMarkedAgain)
                """)
        }
    }

    public func deriveDueReportRows(limit: Int, skippingLocked: Bool) throws(StoreError) -> Int {
        guard let upkeep else { return 0 }
        let lock = skippingLocked ? connection.dialect.lockingReadSkippingLocked : connection.dialect.lockingRead
        let due = try connection.query("""
            SELECT account_id FROM report_rows_due ORDER BY account_id LIMIT \(limit)\(lock)
            """) { $0.text(0) }
        guard !due.isEmpty else { return 0 }
        try upkeep.derive(try upkeepFacts(ofAccounts: due), in: self)
        try clearMarks(due)
        return due.count
    }

    /// The marks this unit holds locked, cleared in one statement (one round trip per batch). The
    /// list is padded to a power of two with its last id (naming a row twice changes nothing), so
    /// a connection keeps a few statement texts prepared rather than one per batch size.
    private func clearMarks(_ accountIds: [String]) throws(StoreError) {
        for ids in SQLRowChunks.idLists(accountIds, maxIds: .max) {
            try connection.run("DELETE FROM report_rows_due WHERE account_id IN (\(ids))")
        }
    }
}

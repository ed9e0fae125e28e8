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

    public func prepareDueReportRows(after accountId: String, limit: Int, upkeep: any FactsUpkeeping)
        throws(StoreError) -> PreparedReportRows? {
        let due = try connection.query("""
            SELECT account_id FROM report_rows_due WHERE account_id > \(accountId) ORDER BY account_id LIMIT \(limit)
            """) { $0.text(0) }
        guard !due.isEmpty else { return nil }
        return PreparedReportRows(accountIds: due, factsVersions: try factsVersions(ofAccounts: due),
                                  catalogRevision: try catalogRevision(),
                                  rows: try upkeep.prepare(try upkeepFacts(ofAccounts: due), reading: self))
    }

    /// Each stored account's facts version (an account not stored has none).
    fileprivate func factsVersions(ofAccounts accountIds: [String]) throws(StoreError) -> [String: Int64] {
        var versions: [String: Int64] = [:]
        for ids in SQLRowChunks.idLists(accountIds) {
            for (id, version) in try connection.query("SELECT id, facts_version FROM accounts WHERE id IN (\(ids))", {
                ($0.text(0), $0.int64(1))
            }) { versions[id] = version }
        }
        return versions
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

    /// Decision 130: a prepared account's rows are written as prepared when neither its facts
    /// version nor the catalog's revision moved since its snapshot (every change of its facts bumps
    /// the version, which never goes back; the rows depend on nothing else), and derived again here
    /// from the facts as this unit sees them otherwise. A prepared account whose mark is gone (a
    /// drain beside this one derived it) is left alone.
    public func deriveDueReportRows(limit: Int, skippingLocked: Bool, prepared: PreparedReportRows?) throws(StoreError) -> Int {
        guard let upkeep else { return 0 }
        let lock = skippingLocked ? connection.dialect.lockingReadSkippingLocked : connection.dialect.lockingRead
        var due: [String] = []
        if let prepared {
            for ids in SQLRowChunks.idLists(prepared.accountIds) {
                due += try connection.query("""
                    SELECT account_id FROM report_rows_due WHERE account_id IN (\(ids)) ORDER BY account_id\(lock)
                    """) { $0.text(0) }
            }
        } else {
            due = try connection.query("""
                SELECT account_id FROM report_rows_due ORDER BY account_id LIMIT \(limit)\(lock)
                """) { $0.text(0) }
        }
        guard !due.isEmpty else { return 0 }
        var stale = due
        if let prepared, try catalogRevision() == prepared.catalogRevision {
            let versions = try factsVersions(ofAccounts: due)
            let unmoved = Set(due.filter { versions[$0] == prepared.factsVersions[$0] })
            try prepared.rows.write(only: unmoved, in: self)
            stale = due.filter { !unmoved.contains($0) }
        }
        if !stale.isEmpty { try upkeep.derive(try upkeepFacts(ofAccounts: stale), in: self) }
        try clearMarks(due)
        return due.count
    }

    /// The marks this unit holds locked, cleared in one statement (one round trip per batch). The
    /// list is padded to a power of two with its last id (naming a row twice changes nothing), so
    /// a connection keeps a few statement texts prepared rather than one per batch size.
    private func clearMarks(_ accountIds: [String]) throws(StoreError) {
        for ids in SQLRowChunks.idLists(accountIds, maxIds: .max) {
            try connection.runLater("DELETE FROM report_rows_due WHERE account_id IN (\(ids))")
        }
    }
}

import Wire

/// E30's `institution_accounts`: which accounts an institution's grant was given to, one row per
/// (account, institution), found by institution when it changes.
extension RecordRows {
    public static let institutionAccountColumns: SQL = """
        SELECT account_id, institution_id, first_seen, address FROM institution_accounts
        """

    public static func institutionAccount(_ row: some StoredRow) -> InstitutionAccount {
        InstitutionAccount(accountId: row.text(0), institutionId: row.text(1), firstSeen: row.instant(2), address: row.text(3))
    }
}

extension SQLReading {
    public func institutionAccount(accountId: String, institutionId: String) throws(StoreError) -> InstitutionAccount? {
        try connection.queryFirst("""
            \(RecordRows.institutionAccountColumns) WHERE account_id = \(accountId) AND institution_id = \(institutionId)
            """, RecordRows.institutionAccount)
    }

    /// The accounts the institution's grant was given to, the first given first.
    public func institutionAccounts(ofInstitution institutionId: String) throws(StoreError) -> [InstitutionAccount] {
        try connection.query("""
            \(RecordRows.institutionAccountColumns) WHERE institution_id = \(institutionId) ORDER BY first_seen, account_id
            """, RecordRows.institutionAccount)
    }
}

extension SQLWriteTransaction {
    /// Inserts the pair unless it is there (`ON CONFLICT DO NOTHING`: of two units of work
    /// recording one pair at once, one inserts); true when this one inserted it.
    public func insert(_ record: InstitutionAccount) throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO institution_accounts (account_id, institution_id, first_seen, address)
            VALUES (\(record.accountId), \(record.institutionId), \(record.firstSeen), \(record.address))
            ON CONFLICT DO NOTHING
            """) == 1
    }

    public func deleteInstitutionAccounts(ofInstitution institutionId: String) throws(StoreError) {
        _ = try connection.run("DELETE FROM institution_accounts WHERE institution_id = \(institutionId)")
    }
}

import Wire

/// E30's institutions, one unit of work each; their networks may overlap one another's (the one
/// created first serves a shared address, `CoveredNetworks`).
///
/// "History sources `print` and `institution` record what each gave" (E30): the accounts an
/// institution's grant was given to are recorded once per pair (`recordInstitutionAccount`),
/// with a `grantGiven` event; changing what the institution gives or deleting it writes
/// `grantChanged` or `grantRevoked` on each of them, in the same unit of work.
extension GatewayStore {
    public func institutions() throws(StoreError) -> [Institution] {
        try read { tx throws(StoreError) in try tx.institutions() }
    }

    public func institution(id: String) throws(StoreError) -> Institution? {
        try read { tx throws(StoreError) in try tx.institution(id: id) }
    }

    /// Saves `institution`; E30 lets its networks overlap another's. When it replaces one that
    /// gave other publications or another interval, each account it was given to gets
    /// `grantChanged` (source `institution`) at `instant`, naming what changed and what it was.
    /// `replacing`: false, and nothing written, when the institution is no longer there (deleted
    /// since the caller read it), so a replacement never brings a deleted one back.
    public func saveInstitution(_ institution: Institution, at instant: Instant, replacing: Bool = false) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in
            let all = try tx.institutions()
            if replacing, !all.contains(where: { $0.institutionId == institution.institutionId }) { return false }
            try tx.save(institution)
            if let old = all.first(where: { $0.institutionId == institution.institutionId }),
               let details = FactHistory.institution(old, changedTo: institution) {
                try appendToAccounts(of: institution.institutionId, .grantChanged, details, at: instant, tx)
            }
            return true
        }
    }

    /// False when there was no such institution. Each account it was given to gets
    /// `grantRevoked` (source `institution`) at `instant`, and the pairs go with it.
    public func deleteInstitution(id: String, at instant: Instant) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in
            guard let old = try tx.institution(id: id) else { return false }
            var details = FactHistory.institution(old)
            details.set("revokedAt", instant: instant)
            try appendToAccounts(of: id, .grantRevoked, details, at: instant, tx)
            try tx.deleteInstitutionAccounts(ofInstitution: id)
            return try tx.deleteInstitution(id: id)
        }
    }

    /// Whether the institution's grant was recorded as given to the account (a read: the
    /// caller writes only when it was not).
    public func institutionAccount(accountId: String, institutionId: String) throws(StoreError) -> InstitutionAccount? {
        try read { tx throws(StoreError) in try tx.institutionAccount(accountId: accountId, institutionId: institutionId) }
    }

    /// E30: records that the institution's grant was given to `record.accountId`, and, only when
    /// the pair is new, appends its `grantGiven` event (source `institution`, the institution's
    /// terms as stored and the client address) in the same unit of work; true when it was new.
    /// Recording a pair again, here or in another process, writes nothing, and so does recording
    /// one of an institution deleted meanwhile (the pair's row refers to the institution's).
    public func recordInstitutionAccount(_ record: InstitutionAccount) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in
            guard let institution = try tx.institution(id: record.institutionId), try tx.insert(record) else { return false }
            var details = FactHistory.institution(institution)
            details.set("address", .string(record.address))
            try tx.append(HistoryEvent(accountId: record.accountId, at: record.firstSeen, kind: .grantGiven,
                                       source: .institution, details: details))
            return true
        }
    }

    private func appendToAccounts(of institutionId: String, _ kind: HistoryKind, _ details: JSONObject, at instant: Instant,
                                  _ tx: any WriteTransaction) throws(StoreError) {
        for record in try tx.institutionAccounts(ofInstitution: institutionId) {
            try tx.append(HistoryEvent(accountId: record.accountId, at: instant, kind: kind, source: .institution,
                                       details: details))
        }
    }
}

/// E30's institutions, one unit of work each. Whether their networks overlap is decided above the
/// store, on the list `institutions()` gives, inside the same write (`saveInstitution`'s `check`),
/// so two admins cannot each add one half of an overlap.
extension GatewayStore {
    public func institutions() throws(StoreError) -> [Institution] {
        try read { tx throws(StoreError) in try tx.institutions() }
    }

    public func institution(id: String) throws(StoreError) -> Institution? {
        try read { tx throws(StoreError) in try tx.institution(id: id) }
    }

    /// Saves `institution` when `check` accepts it beside the others (every institution but
    /// itself); `check`'s refusal is returned and nothing is written.
    public func saveInstitution<Refusal: Sendable>(_ institution: Institution,
                                                   check: ([Institution]) -> Refusal?) throws(StoreError) -> Refusal? {
        try write { tx throws(StoreError) in
            let others = try tx.institutions().filter { $0.institutionId != institution.institutionId }
            if let refusal = check(others) { return refusal }
            try tx.save(institution)
            return nil
        }
    }

    /// False when there was no such institution.
    public func deleteInstitution(id: String) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in try tx.deleteInstitution(id: id) }
    }
}

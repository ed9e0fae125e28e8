import Wire

/// Sessions and identities read on their own (readers.md, E31–E34); what changes them is the
/// core's units of work (sign-in uses a nonce in the same one).
extension GatewayStore {
    /// One statement, no transaction around it (`readStatement`): every reader's first request
    /// after a restart makes it.
    public func session(tokenHash: String) throws(StoreError) -> Session? {
        try readStatement { tx throws(StoreError) in try tx.session(tokenHash: tokenHash) }
    }

    public func liveSessions(ofAccount accountId: String, idleCutoff: Instant) throws(StoreError) -> [Session] {
        try read { tx throws(StoreError) in try tx.liveSessions(ofAccount: accountId, idleCutoff: idleCutoff) }
    }

    public func identities(ofAccount accountId: String) throws(StoreError) -> [Identity] {
        try read { tx throws(StoreError) in try tx.identities(ofAccount: accountId) }
    }

    /// E32: the account an id reaches now (itself, or where its merges lead).
    public func reachedAccount(id accountId: String) throws(StoreError) -> Account? {
        try read { tx throws(StoreError) in try tx.reachedAccount(id: accountId) }
    }
}

/// Accounts and API keys, one unit of work each. Secrets never reach the store: only their hashes.
extension GatewayStore {
    /// `.appAccountTokenInUse` (nothing written) when another account holds its appAccountToken
    /// (a UUID names one account: E4's V2 rule binds purchases carrying it to that account);
    /// `.taken` (nothing written) if the id or the token hash is. `firstSession`, when given, is
    /// made with it (E34: the token `POST /v1/accounts` answers is the account's first session).
    @discardableResult
    public func createAccount(_ account: Account, firstSession: Session? = nil) throws(StoreError) -> AccountCreation {
        try write { tx throws(StoreError) in
            // Asked inside the unit of work that inserts, so two creations cannot both pass it.
            if let token = account.appAccountToken, try tx.account(appAccountToken: token) != nil {
                return .appAccountTokenInUse
            }
            guard try tx.insert(account) else { return .taken }
            if let firstSession, !(try tx.insert(firstSession)) { throw .failed }
            return .created
        }
    }

    public func account(id: String) throws(StoreError) -> Account? {
        try read { tx throws(StoreError) in try tx.account(id: id) }
    }

    public func account(tokenHash: String) throws(StoreError) -> Account? {
        try read { tx throws(StoreError) in try tx.account(tokenHash: tokenHash) }
    }

    public func account(appAccountToken: String) throws(StoreError) -> Account? {
        try read { tx throws(StoreError) in try tx.account(appAccountToken: appAccountToken) }
    }

    /// False (nothing written) if the key id or the secret hash is taken.
    public func createAPIKey(_ key: APIKey) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in try tx.insert(key) }
    }

    /// One statement: no transaction around it (`readStatement`).
    public func apiKey(secretHash: String) throws(StoreError) -> APIKey? {
        try readStatement { tx throws(StoreError) in try tx.apiKey(secretHash: secretHash) }
    }

    public func apiKeys() throws(StoreError) -> [APIKey] {
        try read { tx throws(StoreError) in try tx.apiKeys() }
    }

    /// The key stops working at once: the next `apiKey(secretHash:)` no longer finds it.
    /// False when there was no such key.
    @discardableResult
    public func deleteAPIKey(keyId: String) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in try tx.deleteAPIKey(keyId: keyId) }
    }

}

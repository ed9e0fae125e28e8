/// Accounts and API keys, one unit of work each. Secrets never reach the store: only their hashes.
extension GatewayStore {
    /// `.appAccountTokenInUse` (nothing written) when another account holds its appAccountToken
    /// (a UUID names one account: E4's V2 rule binds purchases carrying it to that account);
    /// `.conflict` if the id or the token hash is taken.
    @discardableResult
    public func createAccount(_ account: Account) throws(StoreError) -> AccountCreation {
        try write { tx throws(StoreError) in
            // Asked inside the unit of work that inserts, so two creations cannot both pass it.
            if let token = account.appAccountToken, try tx.account(appAccountToken: token) != nil {
                return .appAccountTokenInUse
            }
            try Self.naming("account \(account.id), its token or its appAccountToken is taken") {
                () throws(StoreError) in try tx.insert(account)
            }
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

    /// `.conflict` if the key id or the secret hash is taken.
    public func createAPIKey(_ key: APIKey) throws(StoreError) {
        try write { tx throws(StoreError) in
            try Self.naming("key \(key.keyId) or its secret is taken") { () throws(StoreError) in try tx.insert(key) }
        }
    }

    public func apiKey(secretHash: String) throws(StoreError) -> APIKey? {
        try read { tx throws(StoreError) in try tx.apiKey(secretHash: secretHash) }
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

    /// A backend's conflict says only that a record exists; the operation knows which.
    private static func naming(_ sentence: String, _ insert: () throws(StoreError) -> Void) throws(StoreError) {
        do throws(StoreError) {
            try insert()
        } catch .conflict {
            throw .conflict(sentence)
        }
    }
}

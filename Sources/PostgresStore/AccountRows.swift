import GatewayStore
import Wire

/// Accounts (with their facts version) and API keys. Secrets never reach the store: only hashes.
extension PostgresReading {
    func account(id: String) throws(StoreError) -> Account? { try findAccount(where: "id", equals: id) }

    func account(tokenHash: String) throws(StoreError) -> Account? {
        try findAccount(where: "token_hash", equals: tokenHash)
    }

    func account(appAccountToken: String) throws(StoreError) -> Account? {
        try findAccount(where: "app_account_token", equals: appAccountToken)
    }

    /// `column` is one of this file's literals, never caller input.
    private func findAccount(where column: StaticString, equals value: String) throws(StoreError) -> Account? {
        try connection.queryFirst(RecordRows.accountColumns + " WHERE \(column) = $1", [.text(value)], RecordRows.account)
    }

    func factsVersion(ofAccount accountId: String) throws(StoreError) -> Int64 {
        try connection.queryFirst("SELECT facts_version FROM accounts WHERE id = $1", [.text(accountId)]) {
            $0.int64(0)
        } ?? 0
    }

    func apiKey(secretHash: String) throws(StoreError) -> APIKey? {
        try connection.queryFirst(RecordRows.keyColumns + " WHERE secret_hash = $1", [.text(secretHash)]) {
            row throws(StoreError) in try RecordRows.apiKey(row)
        }
    }

    func apiKeys() throws(StoreError) -> [APIKey] {
        try connection.query(RecordRows.keyColumns + " ORDER BY key_id") {
            row throws(StoreError) in try RecordRows.apiKey(row)
        }
    }
}

extension PostgresWriteTransaction {
    func insert(_ account: Account) throws(StoreError) {
        try connection.run("INSERT INTO accounts (id, token_hash, app_account_token, created_at) VALUES ($1, $2, $3, $4)",
                           [.text(account.id), .text(account.tokenHash), .optional(account.appAccountToken),
                            .instant(account.createdAt)])
    }

    func bumpFactsVersion(ofAccount accountId: String) throws(StoreError) {
        // The change log's lock before the row's: see `recordChange`.
        try recordChange(.accountFacts(accountId: accountId))
        try connection.run("UPDATE accounts SET facts_version = facts_version + 1 WHERE id = $1", [.text(accountId)])
    }

    func insert(_ key: APIKey) throws(StoreError) {
        try connection.run("""
            INSERT INTO api_keys (key_id, role, publications, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5)
            """, [.text(key.keyId), .text(key.role.rawValue), CatalogRows.join(key.publications),
                  .text(key.secretHash), .instant(key.createdAt)])
        try recordChange(.apiKey(keyId: key.keyId))
    }

    func deleteAPIKey(keyId: String) throws(StoreError) -> Bool {
        guard try connection.run("DELETE FROM api_keys WHERE key_id = $1", [.text(keyId)]) > 0 else { return false }
        try recordChange(.apiKey(keyId: keyId))
        return true
    }
}

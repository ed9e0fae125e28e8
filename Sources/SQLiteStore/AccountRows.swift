import GatewayStore
import Wire

/// Accounts (with their facts version) and API keys. Secrets never reach the store: only hashes.
extension SQLiteReading {
    func account(id: String) throws(StoreError) -> Account? { try findAccount(where: "id", equals: id) }

    func account(tokenHash: String) throws(StoreError) -> Account? {
        try findAccount(where: "token_hash", equals: tokenHash)
    }

    func account(appAccountToken: String) throws(StoreError) -> Account? {
        try findAccount(where: "app_account_token", equals: appAccountToken)
    }

    /// `column` is one of this file's literals, never caller input.
    private func findAccount(where column: StaticString, equals value: String) throws(StoreError) -> Account? {
        try connection.queryFirst(RecordRows.accountColumns + " WHERE \(column) = ?", [.text(value)], RecordRows.account)
    }

    func factsVersion(ofAccount accountId: String) throws(StoreError) -> Int64 {
        try connection.queryFirst("SELECT facts_version FROM accounts WHERE id = ?", [.text(accountId)]) {
            $0.int64(0)
        } ?? 0
    }

    func apiKey(secretHash: String) throws(StoreError) -> APIKey? {
        try connection.queryFirst(RecordRows.keyColumns + " WHERE secret_hash = ?", [.text(secretHash)]) {
            row throws(StoreError) in try RecordRows.apiKey(row)
        }
    }

    func apiKeys() throws(StoreError) -> [APIKey] {
        try connection.query(RecordRows.keyColumns + " ORDER BY key_id") {
            row throws(StoreError) in try RecordRows.apiKey(row)
        }
    }
}

extension SQLiteWriteTransaction {
    func insert(_ account: Account) throws(StoreError) {
        try connection.run("INSERT INTO accounts (id, token_hash, app_account_token, created_at) VALUES (?, ?, ?, ?)",
                           [.text(account.id), .text(account.tokenHash), .optional(account.appAccountToken),
                            .integer(account.createdAt.millisecondsSinceEpoch)])
    }

    func bumpFactsVersion(ofAccount accountId: String) throws(StoreError) {
        try connection.run("UPDATE accounts SET facts_version = facts_version + 1 WHERE id = ?", [.text(accountId)])
    }

    func insert(_ key: APIKey) throws(StoreError) {
        try connection.run("""
            INSERT INTO api_keys (key_id, role, publications, secret_hash, created_at) VALUES (?, ?, ?, ?, ?)
            """, [.text(key.keyId), .text(key.role.rawValue), CatalogRows.join(key.publications),
                  .text(key.secretHash), .integer(key.createdAt.millisecondsSinceEpoch)])
    }

    func deleteAPIKey(keyId: String) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM api_keys WHERE key_id = ?", [.text(keyId)]) > 0
    }
}

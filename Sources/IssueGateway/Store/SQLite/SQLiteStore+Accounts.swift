import IssueCatalog
import Wire

/// Accounts and API keys. Secrets never reach the store: only their hashes.
extension SQLiteStore {
    public func createAccount(_ account: Account) throws(StoreError) {
        try write { c throws(StoreError) in
            try c.run("INSERT INTO accounts (id, token_hash, app_account_token, created_at) VALUES (?, ?, ?, ?)",
                      [.text(account.id), .text(account.tokenHash), .optional(account.appAccountToken),
                       .integer(account.createdAt.millisecondsSinceEpoch)])
        }
    }

    public func account(id: String) throws(StoreError) -> Account? {
        try findAccount(where: "id", equals: id)
    }

    public func account(tokenHash: String) throws(StoreError) -> Account? {
        try findAccount(where: "token_hash", equals: tokenHash)
    }

    public func account(appAccountToken: String) throws(StoreError) -> Account? {
        try findAccount(where: "app_account_token", equals: appAccountToken)
    }

    /// `column` is one of this file's literals, never caller input.
    private func findAccount(where column: StaticString, equals value: String) throws(StoreError) -> Account? {
        try read { c throws(StoreError) in
            try c.queryFirst("SELECT id, token_hash, app_account_token, created_at FROM accounts WHERE \(column) = ?",
                             [.text(value)]) {
                Account(id: $0.text(0), tokenHash: $0.text(1), appAccountToken: $0.optionalText(2),
                        createdAt: Instant(millisecondsSinceEpoch: $0.int64(3)))
            }
        }
    }

    public func createAPIKey(_ key: APIKey) throws(StoreError) {
        try write { c throws(StoreError) in
            try c.run("INSERT INTO api_keys (key_id, role, publications, secret_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                      [.text(key.keyId), .text(key.role.rawValue),
                       .text(key.publications.joined(separator: String(CatalogRows.grantSeparator))),
                       .text(key.secretHash), .integer(key.createdAt.millisecondsSinceEpoch)])
        }
    }

    public func apiKey(secretHash: String) throws(StoreError) -> APIKey? {
        try read { c throws(StoreError) in
            try c.queryFirst(Self.keyColumns + " WHERE secret_hash = ?", [.text(secretHash)]) {
                row throws(StoreError) in try Self.apiKey(row)
            }
        }
    }

    public func apiKeys() throws(StoreError) -> [APIKey] {
        try read { c throws(StoreError) in
            try c.query(Self.keyColumns + " ORDER BY key_id") { row throws(StoreError) in try Self.apiKey(row) }
        }
    }

    public func deleteAPIKey(keyId: String) throws(StoreError) {
        try write { c throws(StoreError) in
            guard try c.run("DELETE FROM api_keys WHERE key_id = ?", [.text(keyId)]) > 0 else {
                throw .notFound("key \(keyId)")
            }
        }
    }

    private static let keyColumns = "SELECT key_id, role, publications, secret_hash, created_at FROM api_keys"

    private static func apiKey(_ row: SQLiteRow) throws(StoreError) -> APIKey {
        guard let role = APIKey.Role(rawValue: row.text(1)) else { throw .io("key \(row.text(0)): unknown role") }
        return APIKey(keyId: row.text(0), role: role,
                      publications: row.text(2).split(separator: CatalogRows.grantSeparator).map(String.init),
                      secretHash: row.text(3), createdAt: Instant(millisecondsSinceEpoch: row.int64(4)))
    }
}

import Wire

/// E33: a single-use code that puts another device on an account, stored only as its hash.
public struct LinkCode: Hashable, Sendable {
    /// Lowercase hex SHA-256 of the code in its canonical form (upper case, no spaces or hyphens).
    public var codeHash: String
    public var accountId: String
    public var createdAt: Instant
    public var expiresAt: Instant
    public var usedAt: Instant?

    public init(codeHash: String, accountId: String, createdAt: Instant, expiresAt: Instant, usedAt: Instant? = nil) {
        self.codeHash = codeHash; self.accountId = accountId; self.createdAt = createdAt; self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

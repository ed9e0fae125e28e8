import Wire

/// A reader account. Its bearer secrets are its sessions (E34), stored only as hashes.
public struct Account: Hashable, Sendable {
    public var id: String
    /// Before sessions, the hash of the account's one token. Every token is now a session
    /// (`Session.tokenHash`): this column is never a secret's hash any more and is no longer
    /// read for authentication; it holds the account's id (the column is `NOT NULL UNIQUE`).
    public var tokenHash: String
    /// The StoreKit 2 `appAccountToken` (a UUID) the app sets on purchases (E4).
    public var appAccountToken: String?
    public var createdAt: Instant
    /// E32: the account this one was merged into, and when; a merged account has ended.
    public var mergedInto: String?
    public var mergedAt: Instant?

    public init(id: String, tokenHash: String, appAccountToken: String? = nil, createdAt: Instant,
                mergedInto: String? = nil, mergedAt: Instant? = nil) {
        self.id = id; self.tokenHash = tokenHash; self.appAccountToken = appAccountToken; self.createdAt = createdAt
        self.mergedInto = mergedInto; self.mergedAt = mergedAt
    }
}

import Wire

/// A reader account. Its bearer token is stored only as a hash.
public struct Account: Hashable, Sendable {
    public var id: String
    /// Lowercase hex SHA-256 of the account token.
    public var tokenHash: String
    /// The StoreKit 2 `appAccountToken` (a UUID) the app sets on purchases (E4).
    public var appAccountToken: String?
    public var createdAt: Instant

    public init(id: String, tokenHash: String, appAccountToken: String? = nil, createdAt: Instant) {
        self.id = id; self.tokenHash = tokenHash; self.appAccountToken = appAccountToken; self.createdAt = createdAt
    }
}

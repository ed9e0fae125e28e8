import Wire

/// The device a session was made for (readers.md, E34): an id the app chose and keeps (a UUID),
/// a name and a platform, each as the app sent it; all nil for the first session of
/// `POST /v1/accounts`.
public struct SessionDevice: Hashable, Sendable {
    public var id: String?
    public var name: String?
    public var platform: String?

    public init(id: String? = nil, name: String? = nil, platform: String? = nil) {
        self.id = id; self.name = name; self.platform = platform
    }
}

/// An identity as its key: a configured provider's id and the ID token's `sub` (E31).
public struct IdentityKey: Hashable, Sendable {
    public var provider: String
    public var subject: String

    public init(provider: String, subject: String) { self.provider = provider; self.subject = subject }
}

/// One device's bearer secret for one account (E34). The secret is stored only as its hash.
/// A session has ended when `endedAt` is set (sign-out, a replacement, a merge) or when it was
/// unused for the idle time (`isLive`).
public struct Session: Hashable, Sendable {
    public var id: String
    public var accountId: String
    /// Lowercase hex SHA-256 of the session token.
    public var tokenHash: String
    public var device: SessionDevice
    /// The identity the session was signed in with (E31), nil for an anonymous account's or a
    /// link code's session.
    public var identity: IdentityKey?
    public var createdAt: Instant
    public var lastUsedAt: Instant
    public var endedAt: Instant?

    public init(id: String, accountId: String, tokenHash: String, device: SessionDevice = SessionDevice(),
                identity: IdentityKey? = nil, createdAt: Instant, lastUsedAt: Instant? = nil, endedAt: Instant? = nil) {
        self.id = id; self.accountId = accountId; self.tokenHash = tokenHash; self.device = device
        self.identity = identity; self.createdAt = createdAt; self.lastUsedAt = lastUsedAt ?? createdAt
        self.endedAt = endedAt
    }

    /// E34: not ended, and used at `idleCutoff` or later (a session unused longer has ended).
    public func isLive(idleCutoff: Instant) -> Bool { endedAt == nil && lastUsedAt >= idleCutoff }
}

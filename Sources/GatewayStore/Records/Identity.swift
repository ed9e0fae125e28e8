import Wire

/// An identity an ID token proved, held by one account (readers.md, E31/E32), with the claims
/// support may read, each as the provider last gave it (a sign-in replaces them).
public struct Identity: Hashable, Sendable {
    public var key: IdentityKey
    public var accountId: String
    public var email: String?
    public var emailVerified: Bool?
    public var isPrivateEmail: Bool?
    /// Sign in with Apple's `real_user_status`.
    public var realUserStatus: Int?
    public var createdAt: Instant

    public init(key: IdentityKey, accountId: String, email: String? = nil, emailVerified: Bool? = nil,
                isPrivateEmail: Bool? = nil, realUserStatus: Int? = nil, createdAt: Instant) {
        self.key = key; self.accountId = accountId; self.email = email; self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail; self.realUserStatus = realUserStatus; self.createdAt = createdAt
    }
}

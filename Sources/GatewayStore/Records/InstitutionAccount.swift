import Wire

/// E30: an account an institution's grant was given to on an account route (its list or a
/// token, from an address the institution covers): when, and from which client address, it was
/// first given. One per (account, institution); its history event is written with it.
public struct InstitutionAccount: Sendable, Equatable {
    public var accountId: String
    public var institutionId: String
    public var firstSeen: Instant
    /// The client address the grant was first given to (E30's address, as text).
    public var address: String

    public init(accountId: String, institutionId: String, firstSeen: Instant, address: String) {
        self.accountId = accountId; self.institutionId = institutionId; self.firstSeen = firstSeen; self.address = address
    }
}

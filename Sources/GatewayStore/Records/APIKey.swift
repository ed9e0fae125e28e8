import Wire

/// An API key (http-api.md, Auth). The secret is stored only as a hash.
public struct APIKey: Hashable, Sendable {
    public enum Role: String, Hashable, Sendable, CaseIterable { case admin, editor, service }

    public var keyId: String
    public var role: Role
    /// Publications an editor key may change; empty for other roles.
    public var publications: [String]
    /// Lowercase hex SHA-256 of the secret.
    public var secretHash: String
    public var createdAt: Instant

    public init(keyId: String, role: Role, publications: [String] = [], secretHash: String, createdAt: Instant) {
        self.keyId = keyId; self.role = role; self.publications = publications
        self.secretHash = secretHash; self.createdAt = createdAt
    }
}

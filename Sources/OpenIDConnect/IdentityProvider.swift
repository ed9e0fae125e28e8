import Foundation

/// One configured OpenID Connect provider (readers.md, Configuration): the id readers name it by
/// (`apple`, `google`, a publisher's own), the issuers its tokens may carry, where its keys are
/// published, the client ids its tokens are for, and the algorithms it signs with.
public struct IdentityProvider: Sendable, Equatable {
    public var id: String
    public var issuers: Set<String>
    public var jwksURL: URL
    public var clientIds: Set<String>
    public var algorithms: Set<String>

    public static let defaultAlgorithms: Set<String> = ["RS256", "ES256"]

    public init(id: String, issuers: Set<String>, jwksURL: URL, clientIds: Set<String>, algorithms: Set<String> = defaultAlgorithms) {
        self.id = id; self.issuers = issuers; self.jwksURL = jwksURL; self.clientIds = clientIds; self.algorithms = algorithms
    }

    /// What Apple and Google publish (readers.md, Decisions: a left-out issuer or `jwksUrl` of
    /// `apple` or `google` takes these; Google's tokens carry either issuer spelling, as its own
    /// verifier accepts).
    public struct Published: Sendable {
        public var issuers: Set<String>
        public var jwksURL: URL
    }

    public static let published: [String: Published] = [
        "apple": Published(issuers: ["https://appleid.apple.com"], jwksURL: URL(string: "https://appleid.apple.com/auth/keys")!),
        "google": Published(issuers: ["https://accounts.google.com", "accounts.google.com"],
                            jwksURL: URL(string: "https://www.googleapis.com/oauth2/v3/certs")!),
    ]
}

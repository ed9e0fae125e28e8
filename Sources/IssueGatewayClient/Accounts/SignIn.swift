import Foundation
#if canImport(CryptoKit)
import CryptoKit
#endif

/// An identity provider the gateway is configured with (readers.md, Words): `apple`, `google`,
/// or the publisher's own id.
public struct IdentityProvider: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral {
    /// The provider's id in the gateway's configuration.
    public var rawValue: String

    /// The provider with this id.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The provider with this id.
    public init(stringLiteral value: String) { rawValue = value }

    /// Sign in with Apple.
    public static let apple = IdentityProvider(rawValue: "apple")
    /// Google Sign-In.
    public static let google = IdentityProvider(rawValue: "google")
}

/// A single-use nonce the gateway issued (`POST /v1/sessions/nonces`), valid 10 minutes. The ID
/// token must carry it (Google, most providers) or its SHA-256 (Sign in with Apple: set
/// `ASAuthorizationAppleIDRequest.nonce` to ``sha256``).
public struct SignInNonce: Sendable, Hashable, Decodable {
    /// The nonce as issued; what the sign-in request sends back.
    public var nonce: String
    /// When it stops being accepted.
    public var expiresAt: Date

    #if canImport(CryptoKit)
    /// The lowercase hex SHA-256 of ``nonce``, for Sign in with Apple's request (E31 step 5).
    public var sha256: String {
        SHA256.hash(data: Data(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
    }
    #endif
}

/// What a sign-in (ID token or link code) answered: the session is already kept.
public struct SignInResult: Sendable, Hashable {
    /// The session now in use, saved in the ``SessionStore``.
    public var session: Session
    /// Whether a new account was made for the identity (E32 rows 1 and 3).
    public var created: Bool
    /// Accounts merged into this one by the sign-in (E32 row 5): this device's anonymous account.
    public var mergedFrom: [String]
}

/// A link code (E33): 8 characters the reader types on a second device, valid 15 minutes.
public struct LinkCode: Sendable, Hashable, Decodable {
    /// The code, e.g. `K7MX2QPA`.
    public var code: String
    /// When it stops working.
    public var expiresAt: Date
}

/// The answer of `POST /v1/sessions`.
struct SessionAnswer: Decodable {
    var accountId: String
    var sessionId: String
    var sessionToken: String
    var created: Bool
    var mergedFrom: [String]?
}

/// The body of `POST /v1/sessions`: an ID token with its nonce, or a link code.
struct SessionRequest: Encodable {
    var provider: String?
    var idToken: String?
    var nonce: String?
    var linkCode: String?
    var device: DeviceInfo
    var replaceSessionId: String?
}

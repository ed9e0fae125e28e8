import Foundation
import OpenIDConnect
import Wire

/// What a Pub/Sub push token must say (googleplay.md "Push auth"; Google's `id_token.py`): the
/// audience set on the push subscription and the push service account's verified email.
public struct PushTokenPolicy: Sendable, Equatable {
    public var audience: String
    public var email: String
    /// Clock skew tolerated on `exp` and `iat`.
    public var leewaySeconds: Int64

    /// Both spellings Google's own verifier accepts.
    public static let issuers: Set<String> = IdentityProvider.published["google"]!.issuers
    /// Where Google publishes the keys that sign its OIDC tokens.
    public static let keysURL = IdentityProvider.published["google"]!.jwksURL

    public init(audience: String, email: String, leewaySeconds: Int64 = 60) {
        self.audience = audience; self.email = email; self.leewaySeconds = leewaySeconds
    }
}

/// Why a push token was refused; every case is a 401 to Pub/Sub, except that the keys could not be
/// fetched (503, so that Pub/Sub redelivers).
public enum PushTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    case missing
    case malformed(String)
    /// `alg` other than RS256 (`none` included: RFC 8725 §3.1).
    case algorithm(String)
    case unknownKey
    case signature
    case issuer
    case audience
    case email
    case emailNotVerified
    case expired
    case notYetValid
    case keysUnavailable(String)

    public var description: String {
        switch self {
        case .missing: "no bearer token"
        case .malformed(let why): "the token is malformed: \(why)"
        case .algorithm(let alg): "the token's algorithm \(alg) is not RS256"
        case .unknownKey: "the token's key is not among Google's signing keys"
        case .signature: "the token's signature does not verify"
        case .issuer: "the token was not issued by Google"
        case .audience: "the token is for another audience"
        case .email: "the token names another service account"
        case .emailNotVerified: "the token's email is not verified"
        case .expired: "the token has expired"
        case .notYetValid: "the token was issued in the future"
        case .keysUnavailable(let why): "Google's signing keys could not be fetched: \(why)"
        }
    }
}

/// Verifies a Pub/Sub push's `Authorization: Bearer` OIDC token (RS256 against Google's JWKS,
/// kept by `Cache-Control`). The signature step is OpenIDConnect's, as for readers' ID tokens;
/// the claims a push token must carry are its own.
public struct PushTokenVerifier: Sendable {
    public let policy: PushTokenPolicy
    private let keys: KeptKeySet

    public init(policy: PushTokenPolicy, keys: KeptKeySet) { self.policy = policy; self.keys = keys }

    /// The token's claims when it verifies at `now`.
    @discardableResult
    public func verify(authorization: String?, now: Instant) throws(PushTokenError) -> JSONObject {
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else { throw .missing }
        return try verify(token: String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces), now: now)
    }

    public func verify(token: String, now: Instant) throws(PushTokenError) -> JSONObject {
        let jwt: SignedJWT
        do { jwt = try SignedJWT.verify(token, algorithms: ["RS256"], keys: keys, now: now) } catch {
            switch error {
            case .malformed(let why): throw .malformed(why)
            case .algorithm(let alg): throw .algorithm(alg)
            case .unknownKey: throw .unknownKey
            case .signature: throw .signature
            case .keysUnavailable(let why): throw .keysUnavailable(why)
            }
        }
        try check(jwt.claims, now: now)
        return jwt.claims
    }

    private func check(_ claims: JSONObject, now: Instant) throws(PushTokenError) {
        guard let iss = claims["iss"]?.stringValue, PushTokenPolicy.issuers.contains(iss) else { throw .issuer }
        // RFC 7519 §4.1.3: `aud` is a string or an array of strings.
        let audiences = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard audiences.contains(policy.audience) else { throw .audience }
        guard claims["email"]?.stringValue == policy.email else { throw .email }
        guard claims["email_verified"]?.boolValue == true else { throw .emailNotVerified }
        guard let exp = claims["exp"]?.integerValue else { throw .malformed("exp is missing") }
        let seconds = now.secondsSinceEpoch
        guard seconds < exp + policy.leewaySeconds else { throw .expired }
        if let iat = claims["iat"]?.integerValue, iat > seconds + policy.leewaySeconds { throw .notYetValid }
    }
}

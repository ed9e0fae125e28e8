import GatewayCrypto
import Wire

/// What a verified ID token says about its subject (readers.md E31): `sub`, and the email claims
/// kept for support as given. `claims` holds the rest for a caller that reads more (Sign in with
/// Apple's notifications read `events`).
public struct IDTokenClaims: Sendable, Equatable {
    /// Empty only where the checks did not require it (a notification names none).
    public var subject: String
    public var email: String?
    public var emailVerified: Bool?
    public var isPrivateEmail: Bool?
    /// Sign in with Apple's `real_user_status` (0, 1 or 2).
    public var realUserStatus: Int?
    public var claims: JSONObject

    /// readers.md E31 step 6: `sub` is 1–255 characters.
    public static let maximumSubjectLength = 255

    /// OpenID Connect Core §3.1.3.7 steps 2–3 and 9–11 on claims whose signature verified.
    /// `nonce` nil: not checked (notifications carry none).
    public static func check(_ claims: JSONObject, provider: IdentityProvider, checks: IDTokenChecks, nonce: String?,
                             now: Instant) throws(IDTokenRefusal) -> IDTokenClaims {
        // Step 2: the issuer exactly.
        guard let iss = claims["iss"]?.stringValue, provider.issuers.contains(iss) else { throw .issuer }
        // Step 3: `aud` (RFC 7519 §4.1.3: a string or an array of strings) names a client id and
        // nothing else; `azp`, when present, is one of them.
        let audiences: [String]
        switch claims["aud"] {
        case .string(let one): audiences = [one]
        case .array(let many):
            let strings = many.compactMap(\.stringValue)
            guard strings.count == many.count else { throw .audience }
            audiences = strings
        default: throw .audience
        }
        guard !audiences.isEmpty, audiences.allSatisfy(provider.clientIds.contains) else { throw .audience }
        if let azp = claims["azp"], !azp.isNull {
            guard let client = azp.stringValue, provider.clientIds.contains(client) else { throw .audience }
        }
        // Steps 9–10 with the skew on every instant.
        let seconds = now.secondsSinceEpoch, skew = checks.clockSkewSeconds
        switch claims["exp"].flatMap(Self.instantSeconds) {
        case .some(let exp): guard seconds < exp + skew else { throw .expired }
        case .none: if checks.expirationRequired || claims.contains("exp") { throw .malformed }
        }
        guard let iat = claims["iat"].flatMap(Self.instantSeconds) else { throw .malformed }
        guard iat <= seconds + skew, iat >= seconds - checks.maximumAgeSeconds - skew else { throw .issuedAt }
        if let nbf = claims["nbf"], !nbf.isNull {
            guard let notBefore = Self.instantSeconds(nbf) else { throw .malformed }
            guard notBefore <= seconds + skew else { throw .issuedAt }
        }
        // Step 11: the nonce the gateway issued, or its SHA-256 (Sign in with Apple's form).
        if let nonce {
            guard let claimed = claims["nonce"]?.stringValue, Self.matches(claimed, nonce: nonce) else { throw .nonce }
        }
        let sub = claims["sub"]?.stringValue ?? ""
        if checks.subjectRequired || claims.contains("sub") {
            guard !sub.isEmpty, sub.count <= maximumSubjectLength else { throw .malformed }
        }
        return IDTokenClaims(subject: sub, email: claims["email"]?.stringValue,
                             emailVerified: claims["email_verified"].flatMap(Self.flag),
                             isPrivateEmail: claims["is_private_email"].flatMap(Self.flag),
                             realUserStatus: claims["real_user_status"]?.integerValue.map { Int($0) }, claims: claims)
    }

    /// The claim equals the nonce, or the lowercase hex SHA-256 of it, compared in constant time.
    static func matches(_ claimed: String, nonce: String) -> Bool {
        let given = Array(claimed.utf8)
        if ConstantTime.equals(given, Array(nonce.utf8)) { return true }
        guard let digest = try? SHA256Digest.hash(Array(nonce.utf8)) else { return false }
        return ConstantTime.equals(given, Array(Hex.encode(digest).utf8))
    }

    /// RFC 7519 §2 NumericDate: seconds, an integer or a fraction (cut to whole seconds).
    static func instantSeconds(_ value: JSONValue) -> Int64? {
        switch value {
        case .integer(let seconds): return seconds
        case .number(let seconds) where seconds.isFinite && abs(seconds) < 1e15: return Int64(seconds.rounded(.down))
        default: return nil
        }
    }

    /// A boolean claim as given: Sign in with Apple sends `"true"`/`"false"` strings as well.
    static func flag(_ value: JSONValue) -> Bool? {
        switch value {
        case .bool(let flag): flag
        case .string("true"): true
        case .string("false"): false
        default: nil
        }
    }
}

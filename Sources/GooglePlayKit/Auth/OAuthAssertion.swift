import Foundation
import GatewayCrypto
import Wire

/// The service account's OAuth 2.0 JWT bearer assertion (RFC 7523 §2.1; Google's service-account
/// flow): RS256, `iss` the account's email, `scope`, `aud` the `token_uri`, `iat`, `exp` at most an
/// hour later.
public enum OAuthAssertion {
    public static let androidPublisherScope = "https://www.googleapis.com/auth/androidpublisher"
    /// Google refuses assertions valid longer than an hour.
    public static let lifetimeSeconds: Int64 = 3600
    public static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// The compact JWS; nil when libcrypto could not sign.
    public static func make(_ key: ServiceAccountKey, issuedAt: Instant, scope: String = androidPublisherScope) -> String? {
        var header = JSONWriter()
        header.object { w in w.field("alg", "RS256"); w.field("typ", "JWT") }
        var claims = JSONWriter()
        let iat = Int(issuedAt.secondsSinceEpoch)
        claims.object { w in
            w.field("iss", key.clientEmail)
            w.field("scope", scope)
            w.field("aud", key.tokenURI.absoluteString)
            w.field("iat", iat)
            w.field("exp", iat + Int(lifetimeSeconds))
        }
        let input = Base64URL.encode(header.bytes) + "." + Base64URL.encode(claims.bytes)
        guard let signature = key.privateKey.signRS256(Array(input.utf8)) else { return nil }
        return input + "." + Base64URL.encode(signature)
    }

    /// The token endpoint's form body (RFC 7523 §2.1, `application/x-www-form-urlencoded`); the
    /// assertion's base64url alphabet and dots need no escaping.
    public static func formBody(assertion: String) -> Data {
        Data("grant_type=\(grantType.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&assertion=\(assertion)".utf8)
    }
}

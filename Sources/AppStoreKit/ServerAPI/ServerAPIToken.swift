import Foundation
import IssueCatalog
import Wire

/// The bearer token of one Server API request (appstore.md "Auth"; RFC 7519, RFC 7515 §7.1):
/// header `{"alg":"ES256","kid","typ":"JWT"}`, claims `iss`, `iat`, `exp`, `aud`, `bid`, signed
/// ES256 with raw r‖s. A fresh token per request keeps every token short-lived.
public enum ServerAPIToken {
    public static let audience = "appstoreconnect-v1"
    /// Apple allows up to 60 minutes; its libraries use 5.
    public static let lifetimeSeconds: Int64 = 300

    /// The header and claims of a token issued at `issuedAt`.
    static func parts(_ credentials: ServerAPICredentials, issuedAt: Instant) -> (header: [UInt8], claims: [UInt8]) {
        var header = JSONWriter(capacity: 64)
        header.object { w in
            w.field("alg", "ES256")
            w.field("kid", credentials.keyId)
            w.field("typ", "JWT")
        }
        let issued = Int(issuedAt.millisecondsSinceEpoch / 1000)
        var claims = JSONWriter(capacity: 160)
        claims.object { w in
            w.field("iss", credentials.issuerId)
            w.field("iat", issued)
            w.field("exp", issued + Int(lifetimeSeconds))
            w.field("aud", audience)
            w.field("bid", credentials.bundleId)
        }
        return (header.bytes, claims.bytes)
    }

    /// The compact token, or nil when libcrypto could not sign.
    public static func make(_ credentials: ServerAPICredentials, issuedAt: Instant) -> String? {
        let (header, claims) = parts(credentials, issuedAt: issuedAt)
        return credentials.key.compactES256(header: header, claims: claims)
    }
}

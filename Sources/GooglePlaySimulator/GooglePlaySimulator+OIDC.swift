import Foundation
import GatewayCrypto
import Wire

/// Google's side of Pub/Sub push authentication: the JWKS it publishes and the OIDC tokens it
/// signs for each push (googleplay.md "Push auth").
extension GooglePlaySimulator {
    /// `max-age` of the JWKS answer: the gateway keeps the keys this long.
    public static let certsMaxAgeSeconds = 3600

    /// `{"keys": [{kty, alg, use, kid, n, e}]}` with the signing key.
    public func jwks() -> [UInt8] {
        var w = JSONWriter()
        let components = signingKey.publicComponents
        w.object { w in
            w.key("keys")
            w.array { w in
                if let components {
                    w.object { w in
                        w.field("kty", "RSA"); w.field("alg", "RS256"); w.field("use", "sig")
                        w.field("kid", signingKeyId)
                        w.field("n", Base64URL.encode(components.modulus))
                        w.field("e", Base64URL.encode(components.exponent))
                    }
                }
            }
        }
        return w.bytes
    }

    /// A push token for `audience`, as Google signs it; the overrides let tests forge the ways a
    /// token can be wrong.
    public func pushToken(audience: String, email: String? = nil, emailVerified: Bool = true,
                          issuer: String = "https://accounts.google.com", lifetimeSeconds: Int64 = 3600,
                          issuedAt: Instant? = nil, keyId: String? = nil, key: RSAPrivateKey? = nil) -> String {
        let iat = (issuedAt ?? credentialNow).secondsSinceEpoch
        var header = JSONWriter()
        header.object { w in w.field("alg", "RS256"); w.field("kid", keyId ?? signingKeyId); w.field("typ", "JWT") }
        var claims = JSONWriter()
        claims.object { w in
            w.field("aud", audience)
            w.field("azp", "1180000000000000000")
            w.field("email", email ?? pushEmail)
            w.field("email_verified", emailVerified)
            w.field("exp", Int(iat + lifetimeSeconds))
            w.field("iat", Int(iat))
            w.field("iss", issuer)
            w.field("sub", "1180000000000000000")
        }
        let input = Base64URL.encode(header.bytes) + "." + Base64URL.encode(claims.bytes)
        let signature = (key ?? signingKey).signRS256(Array(input.utf8)) ?? []
        return input + "." + Base64URL.encode(signature)
    }
}

import Foundation
import GatewayCrypto
import Wire

/// Google's OIDC signing keys (RFC 7517 §5, `https://www.googleapis.com/oauth2/v3/certs`): RSA keys
/// by `kid`. Keys of another type, another algorithm or another use are left out, never trusted.
public struct JSONWebKeySet: Sendable {
    public let keys: [String: RSAPublicKey]

    public init(keys: [String: RSAPublicKey]) { self.keys = keys }

    /// A JWKS of Google's is about 2 KiB.
    public static let maximumBytes = 256 * 1024

    public static func parse(_ body: some Collection<UInt8>) throws(PlayParseError) -> JSONWebKeySet {
        let fields = try PlayFields.parse(body, limit: maximumBytes)
        var keys: [String: RSAPublicKey] = [:]
        for key in try fields.objects("keys") {
            guard try key.string("kty") == "RSA", (try key.string("alg")).map({ $0 == "RS256" }) ?? true,
                  (try key.string("use")).map({ $0 == "sig" }) ?? true,
                  let kid = try key.string("kid"), !kid.isEmpty,
                  let n = try key.string("n").flatMap(Base64URL.decode), let e = try key.string("e").flatMap(Base64URL.decode),
                  let publicKey = RSAPublicKey(modulus: n, exponent: e) else { continue }
            keys[kid] = publicKey
        }
        return JSONWebKeySet(keys: keys)
    }
}

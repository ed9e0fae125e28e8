import Foundation
import GatewayCrypto
import OpenIDConnect
import Synchronization
import TestSupport
import Wire

/// An OpenID Connect provider for tests (readers.md E31): its JWKS served on a real socket
/// (`LocalHTTPListener`, with the `Cache-Control` and status the test sets and every fetch
/// counted), an RSA key (RS256, signed by `GatewayCrypto`) and an EC P-256 key (ES256, signed by
/// `GatewayCrypto` from a PEM that `cryptography` generated), and ID tokens minted by the
/// gateway's own signers or by PyJWT, the forged ones included.
package final class IdentityProviderFixture: Sendable {
    package static let clientId = "com.example.reader"
    package static let otherClientId = "com.example.reader.web"
    package static let issuer = "https://id.example"
    package static let rsaKid = "rsa-1"
    package static let ecKid = "ec-1"

    package let rsaKey: RSAPrivateKey
    package let ecKey: SigningPrivateKey
    /// PEM texts for PyJWT (PKCS#8).
    package let rsaPEM: String
    package let ecPEM: String
    private let ecJWK: (x: String, y: String)
    private let listener: LocalHTTPListener

    private struct Served: Sendable {
        var kids: Set<String> = [IdentityProviderFixture.rsaKid, IdentityProviderFixture.ecKid]
        var cacheControl = "public, max-age=3600"
        var status = 200
    }
    /// What the key set's answer is now, shared with the listener's handler.
    private final class ServedState: Sendable {
        let state = Mutex(Served())
    }
    private let served: ServedState

    package init() throws {
        guard let rsa = RSAPrivateKey(generatingBits: 2048), let pem = rsa.pkcs8PEM else {
            throw HarnessError.unexpected("libcrypto could not make an RSA key")
        }
        rsaKey = rsa
        rsaPEM = pem
        let output = try PyJWT.run("""
            import json, base64
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives import serialization
            key = ec.generate_private_key(ec.SECP256R1())
            numbers = key.public_key().public_numbers()
            b64 = lambda n: base64.urlsafe_b64encode(n.to_bytes(32, "big")).rstrip(b"=").decode()
            pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()).decode()
            print(json.dumps({"pem": pem, "x": b64(numbers.x), "y": b64(numbers.y)}))
            """, arguments: [])
        let made = try JSONParser().parse(output).objectValue
        guard let ecPEM = made?["pem"]?.stringValue, let x = made?["x"]?.stringValue, let y = made?["y"]?.stringValue else {
            throw HarnessError.unexpected("no EC key: \(output)")
        }
        self.ecPEM = ecPEM
        ecKey = try SigningPrivateKey(pem: ecPEM)
        ecJWK = (x, y)
        let served = ServedState()
        self.served = served
        let rsaJWK = rsa.publicComponents.map { (Base64URL.encode($0.modulus), Base64URL.encode($0.exponent)) }
        let ec = (x, y)
        listener = try LocalHTTPListener { _ in
            let now = served.state.withLock { $0 }
            var w = JSONWriter()
            w.object { w in
                w.key("keys")
                w.array { w in
                    if now.kids.contains(Self.rsaKid), let (n, e) = rsaJWK {
                        w.object { w in
                            w.field("kty", "RSA"); w.field("alg", "RS256"); w.field("use", "sig"); w.field("kid", Self.rsaKid)
                            w.field("n", n); w.field("e", e)
                        }
                    }
                    if now.kids.contains(Self.ecKid) {
                        w.object { w in
                            w.field("kty", "EC"); w.field("crv", "P-256"); w.field("alg", "ES256"); w.field("use", "sig")
                            w.field("kid", Self.ecKid); w.field("x", ec.0); w.field("y", ec.1)
                        }
                    }
                }
            }
            return .respond(status: now.status, body: Data(w.bytes), headers: [("Cache-Control", now.cacheControl)])
        }
    }

    deinit { listener.stop() }

    package var jwksURL: URL { listener.url("/keys") }
    /// How many times the key set was fetched.
    package var fetches: Int { listener.requests.count }

    /// The keys the set publishes (rotation: a kid added or withdrawn).
    package func publish(_ kids: Set<String>) { served.state.withLock { $0.kids = kids } }
    package func setCacheControl(_ value: String) { served.state.withLock { $0.cacheControl = value } }
    /// 200, or an error status: the set cannot be fetched.
    package func setStatus(_ status: Int) { served.state.withLock { $0.status = status } }

    /// This provider as configured under `id` (the publisher's own, by default).
    package func provider(id: String = "publisher", issuer: String = issuer) -> IdentityProvider {
        IdentityProvider(id: id, issuers: [issuer], jwksURL: jwksURL, clientIds: [Self.clientId, Self.otherClientId])
    }

    // MARK: Claims and tokens

    /// The claims of a good sign-in token at `now`; change any by the dictionary.
    package static func claims(nonce: String?, now: Instant, subject: String = "reader-1") -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(clientId), "sub": .string(subject),
            "iat": .integer(now.secondsSinceEpoch), "exp": .integer(now.secondsSinceEpoch + 600),
            "email": .string("reader@example.com"), "email_verified": .bool(true),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        return claims
    }

    static func json(_ claims: [String: JSONValue]) -> [UInt8] {
        JSONValue.object(JSONObject(claims.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) })).serializedBytes
    }

    static func header(alg: String, kid: String?) -> [UInt8] {
        var w = JSONWriter()
        w.object { w in w.field("alg", alg); if let kid { w.field("kid", kid) }; w.field("typ", "JWT") }
        return w.bytes
    }

    /// Signed by the gateway's own signers: RS256 with the RSA key, ES256 with the EC key.
    package func token(_ claims: [String: JSONValue], alg: String = "RS256", kid: String? = nil) -> String {
        let header = Self.header(alg: alg, kid: kid ?? (alg == "ES256" ? Self.ecKid : Self.rsaKid))
        if alg == "ES256" { return ecKey.compactES256(header: header, payload: Self.json(claims)) ?? "" }
        return CompactJWS.serialize(header: header, payload: Self.json(claims)) { rsaKey.signRS256($0) } ?? ""
    }

    /// Signed by PyJWT with the same keys (`RS256`, `ES256`), or unsigned (`none`).
    package func pyjwtToken(_ claims: [String: JSONValue], alg: String, kid: String? = nil) throws -> String {
        let key = alg == "ES256" ? ecPEM : alg == "none" ? "" : rsaPEM
        let headers = "{\"kid\": \"\(kid ?? (alg == "ES256" ? Self.ecKid : Self.rsaKid))\"}"
        return try PyJWT.run("""
            import jwt, json, sys
            alg = sys.argv[2]
            print(jwt.encode(json.loads(sys.argv[4]), sys.argv[1] if alg != "none" else None, algorithm=alg,
                             headers=json.loads(sys.argv[3])))
            """, arguments: [key, alg, headers, String(decoding: Self.json(claims), as: UTF8.self)])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The algorithm-confusion forgery (RFC 8725 §2.1): HS256 whose HMAC key is the provider's RSA
    /// public key as PEM, which a verifier trusting `alg` would check with that key.
    package func hs256WithPublicKey(_ claims: [String: JSONValue]) throws -> String {
        try PyJWT.run("""
            import base64, hashlib, hmac, json, sys
            from cryptography.hazmat.primitives import serialization
            key = serialization.load_pem_private_key(sys.argv[1].encode(), None)
            public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
            head = b64(json.dumps({"alg": "HS256", "kid": sys.argv[2], "typ": "JWT"}).encode())
            body = b64(sys.argv[3].encode())
            print(head + "." + body + "." + b64(hmac.new(public, (head + "." + body).encode(), hashlib.sha256).digest()))
            """, arguments: [rsaPEM, Self.rsaKid, String(decoding: Self.json(claims), as: UTF8.self)])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `token` with one byte of its signed payload changed (the signature left as it was).
    package static func tampered(_ token: String) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, var payload = Base64URL.decode(parts[1]) else { return token }
        payload[payload.count / 2] ^= 0x01
        return parts[0] + "." + Base64URL.encode(payload) + "." + parts[2]
    }

    /// The lowercase hex SHA-256 of `nonce`: what Sign in with Apple puts in its tokens.
    package static func hashedNonce(_ nonce: String) -> String { (try? SecretHash.hex(of: nonce)) ?? "" }
}

import Foundation
import GatewayCrypto
import GooglePlaySimulator
import OpenIDConnect
import OutboundHTTP
import TestSupport
import Testing
import Wire
@testable import GooglePlayKit

/// A Pub/Sub push's OIDC token (googleplay.md "Push auth"): RS256 against the JWKS fetched from
/// the configured URL; `iss`, `aud`, `email`, `email_verified`, `exp` checked; `kid` only a lookup.
@Suite struct PushTokenTests {
    static let audience = "https://gateway.example/v1/googleplay/notifications"

    func verifier(_ play: PlayFixture) -> PushTokenVerifier {
        PushTokenVerifier(policy: PushTokenPolicy(audience: Self.audience, email: play.simulator.pushEmail),
                          keys: KeptKeySet(url: play.server.certsURL))
    }

    @Test func googlesTokenVerifies() throws {
        let play = try PlayFixture()
        let claims = try verifier(play).verify(authorization: "Bearer " + play.simulator.pushToken(audience: Self.audience),
                                               now: play.simulator.now)
        #expect(claims["email"]?.stringValue == play.simulator.pushEmail)
    }

    @Test func everyWrongTokenIsRefusedForItsReason() throws {
        let play = try PlayFixture()
        let sim = play.simulator, now = sim.now, check = verifier(play)
        let stranger = try #require(RSAPrivateKey(generatingBits: 2048))
        let header = Base64URL.encode(Array(#"{"alg":"none","kid":"\#(sim.signingKeyId)"}"#.utf8))
        let good = sim.pushToken(audience: Self.audience)
        let unsigned = header + "." + good.split(separator: ".")[1] + "."
        let cases: [(String?, PushTokenError)] = [
            (nil, .missing),
            (sim.pushToken(audience: "https://elsewhere.example/push"), .audience),
            (sim.pushToken(audience: Self.audience, email: "intruder@example.iam.gserviceaccount.com"), .email),
            (sim.pushToken(audience: Self.audience, emailVerified: false), .emailNotVerified),
            (sim.pushToken(audience: Self.audience, issuer: "https://evil.example"), .issuer),
            (sim.pushToken(audience: Self.audience, issuedAt: now.adding(seconds: -7200)), .expired),
            (sim.pushToken(audience: Self.audience, keyId: "unknown-kid"), .unknownKey),
            (sim.pushToken(audience: Self.audience, key: stranger), .signature),
            (unsigned, .algorithm("none")),
            ("not.a.jwt!", .malformed("not a compact JWS")),
        ]
        for (token, expected) in cases {
            #expect(throws: expected) { try check.verify(authorization: token.map { "Bearer " + $0 }, now: now) }
        }
    }

    @Test func aJWKSThatCannotBeFetchedIsUnavailableNotUnauthorized() throws {
        let listener = try LocalHTTPListener { _ in .respond(status: 500, body: Data()) }
        defer { listener.stop() }
        let play = try PlayFixture()
        let check = PushTokenVerifier(policy: PushTokenPolicy(audience: Self.audience, email: play.simulator.pushEmail),
                                      keys: KeptKeySet(url: listener.url("/certs")))
        #expect(throws: PushTokenError.keysUnavailable("HTTP 500")) {
            try check.verify(token: play.simulator.pushToken(audience: Self.audience), now: play.simulator.now)
        }
    }

    @Test func cacheControlMaxAgeIsRead() {
        #expect(CacheControl.maxAge("public, max-age=19790, must-revalidate, no-transform") == 19790)
        #expect(CacheControl.maxAge("no-store") == 0)
        #expect(CacheControl.maxAge("public") == nil)
    }

    /// Tokens and a JWKS made by PyJWT (an independent library) from an RSA key it generated; the
    /// JWKS is served on a local socket and fetched once for every token.
    @Test func tokensMintedByPyJWTAreCheckedAgainstTheJWKSItServes() throws {
        let output = try PyJWT.run("""
            import jwt, json, sys, time
            from cryptography.hazmat.primitives.asymmetric import rsa
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
            jwk.update({"kid": "pyjwt-1", "alg": "RS256", "use": "sig"})
            now = int(sys.argv[1])
            def token(**changes):
                claims = {"iss": "https://accounts.google.com", "aud": sys.argv[2], "email": sys.argv[3],
                          "email_verified": True, "iat": now, "exp": now + 3600, "sub": "1", "azp": "1"}
                claims.update(changes)
                return jwt.encode(claims, key, algorithm="RS256", headers={"kid": "pyjwt-1"})
            print(json.dumps({"jwks": {"keys": [jwk]}, "good": token(), "bareIssuer": token(iss="accounts.google.com"),
                              "audience": token(aud="https://other.example"), "expired": token(exp=now - 120),
                              "hs256": jwt.encode({"aud": sys.argv[2]}, "secret-secret-secret-secret-secret", algorithm="HS256",
                                                  headers={"kid": "pyjwt-1"})}))
            """, arguments: ["1767225600", Self.audience, "push@example.iam.gserviceaccount.com"])
        let made = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let jwks = try JSONSerialization.data(withJSONObject: try #require(made["jwks"]))
        let listener = try LocalHTTPListener { _ in .respond(status: 200, body: jwks) }
        defer { listener.stop() }
        let check = PushTokenVerifier(policy: PushTokenPolicy(audience: Self.audience, email: "push@example.iam.gserviceaccount.com"),
                                      keys: KeptKeySet(url: listener.url("/oauth2/v3/certs")))
        let now = Instant(secondsSinceEpoch: 1_767_225_600 + 60)
        func token(_ name: String) throws -> String { try #require(made[name] as? String) }
        #expect(try check.verify(token: token("good"), now: now)["sub"]?.stringValue == "1")
        #expect(try check.verify(token: token("bareIssuer"), now: now)["iss"]?.stringValue == "accounts.google.com")
        #expect(throws: PushTokenError.audience) { try check.verify(token: token("audience"), now: now) }
        #expect(throws: PushTokenError.expired) { try check.verify(token: token("expired"), now: now) }
        #expect(throws: PushTokenError.algorithm("HS256")) { try check.verify(token: token("hs256"), now: now) }
        #expect(listener.requests.count == 1)
    }
}

import Testing
import Foundation
import DownloadTokens
import GatewayCrypto
import IssueCatalog
import TestSupport
import Wire

/// tokens.md, last test vector: an independent JWT library (PyJWT) agrees with the gateway in
/// both directions. PyJWT is installed by `scripts/setup`; if `import jwt` fails this suite
/// fails (it never skips).
@Suite struct TokenPyJWTTests {
    private func python(_ script: String, _ arguments: [String]) throws -> String {
        try PyJWT.run(script, arguments: arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let keySet = try! TokenKeySet.generate(using: SystemRandom())
    private static var secretArgument: String { Base64URL.encode(keySet.signingKey.secret) }

    @Test func pyjwtVerifiesTokensTheGatewaySigns() throws {
        // PyJWT checks exp/nbf/iat against the real clock, so this token is signed "now".
        let now = Instant(millisecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1000))
        let signed = try TokenSigner(keys: Self.keySet, issuer: "issue-gateway", lifetimeSeconds: 300)
            .sign(subject: "acct-9", publication: "monthly", issue: "2012-02",
                  paths: ["/content/monthly/2012-02/issue.pdf"], now: now, random: SystemRandom())
        let script = """
        import base64, json, sys, jwt
        token, secret, kid = sys.argv[1], sys.argv[2], sys.argv[3]
        key = base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))
        header = jwt.get_unverified_header(token)
        assert header == {"alg": "HS256", "typ": "JWT", "kid": kid}, header
        claims = jwt.decode(token, key, algorithms=["HS256"], audience="edge",
                            options={"require": ["exp", "nbf", "iat", "aud"]})
        try:
            jwt.decode(token, key, algorithms=["HS256"], audience="other")
            raise SystemExit("PyJWT accepted the wrong audience")
        except jwt.InvalidAudienceError:
            pass
        print(json.dumps(claims, sort_keys=True))
        """
        let output = try python(script, [signed.token, Self.secretArgument, Self.keySet.signingKey.kid])
        let claims = try #require(JSONValue.parse(output).objectValue)
        #expect(try DownloadTokenClaims(validating: claims, audience: "edge") == signed.claims)
    }

    @Test func gatewayAcceptsTokensPyJWTSigns() throws {
        let now = TokenFixture.now
        let script = """
        import base64, sys, jwt
        secret, kid, iat = sys.argv[1], sys.argv[2], int(sys.argv[3])
        key = base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))
        claims = {"iss": "issue-gateway", "aud": "edge", "sub": "acct-7", "pub": "monthly",
                  "issue": "2012-02", "paths": ["/content/monthly/2012-02/issue.pdf"],
                  "iat": iat, "nbf": iat, "exp": iat + 300, "jti": "q83vEjRWeJASNFZ4kBI0Vg"}
        print(jwt.encode(claims, key, algorithm="HS256", headers={"kid": kid}))
        """
        let token = try python(script, [Self.secretArgument, Self.keySet.signingKey.kid, String(now.secondsSinceEpoch)])
        let verified = try TokenVerifier(keys: Self.keySet)
            .authorize(token, requestTarget: "/content/monthly/2012-02/issue.pdf", method: "GET", now: now)
        #expect(verified.claims.subject == "acct-7")
        #expect(verified.claims.expiresAt == now.secondsSinceEpoch + 300)
        // And the same library's token under another key is refused.
        let foreign = try python(script, [Base64URL.encode([UInt8](repeating: 5, count: 32)),
                                          Self.keySet.signingKey.kid, String(now.secondsSinceEpoch)])
        #expect(throws: TokenFailure.signature) {
            try TokenVerifier(keys: Self.keySet).verify(foreign, now: now)
        }
    }
}

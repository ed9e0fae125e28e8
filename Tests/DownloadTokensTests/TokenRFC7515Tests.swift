import Testing
import DownloadTokens
import IssueCatalog
import Wire

/// RFC 7515 Appendix A.1: the HS256 example. Its header holds CR LF and spaces, so only a MAC
/// over the received bytes verifies it; its `exp` (1300819380, 2011-03-22T18:43:00Z) is in the
/// past, so the clock is injected.
@Suite struct TokenRFC7515Tests {
    static let token = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    /// The JWK `k` of A.1.
    static let key = Base64URL.decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow")!
    static func tokenKey(_ secret: [UInt8]) -> TokenKey { try! TokenKey(kid: "a1", secret: secret) }

    @Test func verifiesOverTheReceivedBytes() throws {
        let jws = try CompactJWS(parsing: Self.token)
        #expect(Self.key.count == 64)
        #expect(String(decoding: Base64URL.decode(String(Self.token.prefix { $0 != "." }))!, as: UTF8.self)
            == "{\"typ\":\"JWT\",\r\n \"alg\":\"HS256\"}")
        #expect(try jws.headerObject()["alg"] == .string("HS256"))
        #expect(jws.hasValidHS256Signature(key: Self.tokenKey(Self.key)))
        #expect(!jws.hasValidHS256Signature(key: Self.tokenKey(Array(Self.key.dropLast()))))

        let claims = try jws.payloadObject()
        #expect(claims["iss"] == .string("joe"))
        #expect(claims["http://example.com/is_root"] == .bool(true))
        let exp = try #require(claims["exp"]?.integerValue)
        #expect(exp == 1_300_819_380)

        let justBefore = Instant(secondsSinceEpoch: exp - 1)
        #expect(throws: Never.self) {
            try TokenValidityWindow.check(notBefore: nil, expiresAt: exp, now: justBefore, leewaySeconds: 0)
        }
        #expect(throws: TokenFailure.expired) {
            try TokenValidityWindow.check(notBefore: nil, expiresAt: exp, now: Instant(secondsSinceEpoch: exp), leewaySeconds: 0)
        }
    }

    @Test func reserialisedHeaderNoLongerVerifies() throws {
        // Same JSON meaning, compact spelling: a different signing input, so the MAC fails.
        let parts = Self.token.split(separator: ".").map(String.init)
        let compact = Base64URL.encode(#"{"typ":"JWT","alg":"HS256"}"#.utf8)
        let jws = try CompactJWS(parsing: [compact, parts[1], parts[2]].joined(separator: "."))
        #expect(!jws.hasValidHS256Signature(key: Self.tokenKey(Self.key)))
    }

    @Test func theGatewayPolicyStillRefusesIt() {
        // A genuine JWS is not a download token: no kid, no aud (tokens.md step 2).
        let keys = try! TokenKeySet(keys: [TokenKey(kid: "a1", secret: Self.key)])
        #expect(throws: TokenFailure.missingKid) {
            try TokenVerifier(keys: keys).verify(Self.token, now: Instant(secondsSinceEpoch: 1_300_819_000))
        }
    }
}

import Testing
import DownloadTokens
import GatewayCrypto
import IssueCatalog
import Wire

@Suite struct TokenSignVerifyTests {
    @Test func signedTokenHasTheExactHeaderAndClaims() throws {
        let signed = try TokenFixture.signer(ttl: 300).sign(
            subject: "acct-1", publication: "monthly", issue: "2012-02", paths: TokenFixture.paths,
            now: TokenFixture.now.adding(milliseconds: 999), random: RepeatingRandom(byte: 0))
        let parts = signed.token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        #expect(Base64URL.decode(parts[0]).map { String(decoding: $0, as: UTF8.self) }
            == #"{"alg":"HS256","typ":"JWT","kid":"k1"}"#)
        #expect(Base64URL.decode(parts[1]).map { String(decoding: $0, as: UTF8.self) }
            == #"{"iss":"issue-gateway","aud":"edge","sub":"acct-1","pub":"monthly","issue":"2012-02","paths":["/content/monthly/2012-02/issue.pdf","/content/monthly/2012-02/cover image.jpg"],"iat":1800000000,"nbf":1800000000,"exp":1800000300,"jti":"AAAAAAAAAAAAAAAAAAAAAA"}"#)
        #expect(signed.expiresAt == Instant(secondsSinceEpoch: 1_800_000_300))
    }

    @Test func roundTrip() throws {
        let signed = try TokenFixture.issue()
        let verified = try TokenFixture.verifier().verify(signed.token, now: TokenFixture.now)
        #expect(verified.kid == "k1")
        #expect(verified.claims == signed.claims)
        #expect(Base64URL.decode(verified.claims.tokenID)?.count == 16)
        _ = try TokenFixture.verifier().authorize(signed.token, requestTarget: TokenFixture.path, method: "GET",
                                                  now: TokenFixture.now)
    }

    @Test func jtiIsFreshEachTime() throws {
        #expect(try TokenFixture.issue().claims.tokenID != TokenFixture.issue().claims.tokenID)
    }

    @Test func forgedTokenWithTheRightKeyVerifies() throws {
        // Guards the attack tests below: the forger's baseline token is accepted.
        #expect(TokenFixture.failure(try TokenFixture.forge()) == nil)
    }

    @Test func signerRefusesBadConfiguration() {
        #expect(throws: TokenSignerError.invalidLifetime(3601)) {
            try TokenSigner(keys: TokenFixture.keys, issuer: "issue-gateway", lifetimeSeconds: 3601)
        }
        #expect(throws: TokenSignerError.invalidLifetime(0)) {
            try TokenSigner(keys: TokenFixture.keys, issuer: "issue-gateway", lifetimeSeconds: 0)
        }
        #expect(throws: TokenSignerError.emptyIssuer) {
            try TokenSigner(keys: TokenFixture.keys, issuer: "", lifetimeSeconds: 300)
        }
    }

    @Test func signerRefusesATokenNoVerifierWouldAccept() {
        let paths = (0..<100).map { "/content/monthly/2012-02/page-\($0).jpg" }
        #expect {
            try TokenFixture.signer().sign(subject: "a", publication: "monthly", issue: "2012-02", paths: paths,
                                           now: TokenFixture.now, random: SystemRandom())
        } throws: { error in
            if case TokenSignerError.tokenTooLong = error { true } else { false }
        }
    }

    @Test func keyRotationKeepsOldTokensValidWhileTheOldKeyIsListed() throws {
        let old = TokenFixture.keys
        let oldToken = try TokenFixture.issue().token
        let rotated = try old.rotated(using: SystemRandom())
        #expect(rotated.keys.count == 2)
        #expect(rotated.keys[1] == old.signingKey)
        #expect(TokenFixture.failure(oldToken, keys: rotated) == nil)
        let newToken = try TokenFixture.signer(keys: rotated).sign(
            subject: "a", publication: "monthly", issue: "2012-02", paths: [TokenFixture.path],
            now: TokenFixture.now, random: SystemRandom())
        #expect(try TokenFixture.verifier(rotated).verify(newToken.token, now: TokenFixture.now).kid
            == rotated.signingKey.kid)
        // Once the old key is dropped, its tokens stop verifying.
        let newOnly = try TokenKeySet(keys: [rotated.signingKey])
        #expect(TokenFixture.failure(oldToken, keys: newOnly) == .unknownKid)
        #expect(TokenFixture.failure(newToken.token, keys: newOnly) == nil)
    }
}

import Testing
import DownloadTokens
import IssueCatalog
import Foundation
import Wire

/// Every token an attacker might send, and the check that stops it (tokens.md, Verification).
@Suite struct TokenAttackTests {
    typealias F = TokenFixture

    @Test(arguments: [#"{"alg":"none","typ":"JWT","kid":"k1"}"#, #"{"alg":"HS512","typ":"JWT","kid":"k1"}"#,
                      #"{"alg":"RS256","typ":"JWT","kid":"k1"}"#, #"{"alg":"hs256","kid":"k1"}"#,
                      #"{"typ":"JWT","kid":"k1"}"#, #"{"alg":["HS256"],"kid":"k1"}"#])
    func refusesEveryOtherAlgorithm(header: String) throws {
        #expect(F.failure(try F.forge(header: header)) == .algorithm)
    }

    @Test func refusesUnsignedAlgNoneToken() {
        let token = Base64URL.encode(#"{"alg":"none","kid":"k1"}"#.utf8) + "." + Base64URL.encode(F.claims().utf8) + "."
        #expect(F.failure(token) == .algorithm)
    }

    @Test func refusesMissingOrUnknownKid() throws {
        #expect(F.failure(try F.forge(header: #"{"alg":"HS256","typ":"JWT"}"#)) == .missingKid)
        #expect(F.failure(try F.forge(header: #"{"alg":"HS256","kid":7}"#)) == .missingKid)
        #expect(F.failure(try F.forge(header: F.header(kid: "k2"))) == .unknownKid)
        #expect(F.failure(try F.forge(header: F.header(kid: "../../etc/passwd"))) == .unknownKid)
    }

    @Test(arguments: ["jku", "jwk", "x5u", "x5c", "crit"])
    func refusesKeyCarryingOrCriticalHeaders(name: String) throws {
        let header = #"{"alg":"HS256","typ":"JWT","kid":"k1","\#(name)":"x"}"#
        #expect(F.failure(try F.forge(header: header)) == .forbiddenHeader)
    }

    @Test func refusesAnotherTokenType() throws {
        #expect(F.failure(try F.forge(header: #"{"alg":"HS256","typ":"at+jwt","kid":"k1"}"#)) == .tokenType)
        #expect(F.failure(try F.forge(header: #"{"alg":"HS256","typ":"jwt","kid":"k1"}"#)) == nil)
        #expect(F.failure(try F.forge(header: #"{"alg":"HS256","kid":"k1"}"#)) == nil)
    }

    @Test func refusesTamperedClaims() throws {
        let genuine = try F.forge().split(separator: ".").map(String.init)
        let tampered = Base64URL.encode(F.claims(paths: #"["/content/monthly/2012-03/issue.pdf"]"#).utf8)
        #expect(F.failure([genuine[0], tampered, genuine[2]].joined(separator: ".")) == .signature)
    }

    @Test func refusesTamperedOrForeignSignatures() throws {
        let genuine = try F.forge()
        var bytes = Array(genuine.utf8)
        let dot = bytes.lastIndex(of: UInt8(ascii: "."))!
        bytes[dot + 1] = bytes[dot + 1] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(F.failure(String(decoding: bytes, as: UTF8.self)) == .signature)
        #expect(F.failure(try F.forge(secret: F.otherSecret)) == .signature)
        #expect(F.failure(String(genuine[..<genuine.lastIndex(of: ".")!]) + ".") == .signature)
    }

    @Test func refusesNonCanonicalBase64url() throws {
        let genuine = try F.forge()
        // The 43-character signature's last character carries 2 pad bits; setting one keeps the
        // decoded bytes but changes the spelling.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = alphabet.firstIndex(of: genuine.last!)!
        let malleable = String(genuine.dropLast()) + String(alphabet[last | 1])
        #expect(F.failure(malleable) == .base64)
        #expect(F.failure(genuine + "=") == .base64)
        let parts = genuine.split(separator: ".").map(String.init)
        let padded = [parts[0] + String(repeating: "=", count: (4 - parts[0].count % 4) % 4), parts[1], parts[2]]
        #expect(padded[0] != parts[0])
        #expect(F.failure(padded.joined(separator: ".")) == .base64)
        let standardAlphabet = genuine.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if standardAlphabet != genuine { #expect(F.failure(standardAlphabet) == .base64) }
        #expect(F.failure("ey+J." + parts[1] + "." + parts[2]) == .base64)
    }

    @Test func refusesWrongSegmentCounts() throws {
        let genuine = try F.forge()
        #expect(F.failure(String(genuine[..<genuine.lastIndex(of: ".")!])) == .segments)
        #expect(F.failure(genuine + ".e30") == .segments)
        #expect(F.failure("") == .segments)
    }

    @Test func refusesDuplicateNames() throws {
        #expect(F.failure(try F.forge(header: #"{"alg":"HS256","alg":"none","kid":"k1"}"#)) == .duplicateHeaderName)
        #expect(F.failure(try F.forge(header: #"{"alg":"HS256","kid":"k1","kid":"k2"}"#)) == .duplicateHeaderName)
        #expect(F.failure(try F.forge(claims: F.claims(extra: #","aud":"other""#))) == .duplicateClaimName)
        #expect(F.failure(try F.forge(claims: F.claims(extra: #","exp":9999999999"#))) == .duplicateClaimName)
    }

    @Test func refusesMalformedJSONSegments() throws {
        #expect(F.failure(try F.forge(header: #"["HS256"]"#)) == .headerJSON)
        #expect(F.failure(try F.forge(header: #"{"alg":"HS256","kid":"k1""#)) == .headerJSON)
        #expect(F.failure(try F.forge(claims: "[]")) == .claimsJSON)
        #expect(F.failure(try F.forge(claims: F.claims() + " x")) == .claimsJSON)
    }

    @Test func expiryHonoursTheLeeway() throws {
        let token = try F.forge() // exp 1800000300
        #expect(F.failure(token, now: Instant(secondsSinceEpoch: 1_800_000_329).adding(milliseconds: 999)) == nil)
        #expect(F.failure(token, now: Instant(secondsSinceEpoch: 1_800_000_330)) == .expired)
        #expect(F.failure(token, now: Instant(secondsSinceEpoch: 2_000_000_000)) == .expired)
    }

    @Test func notBeforeHonoursTheLeeway() throws {
        let token = try F.forge(claims: F.claims(iat: "1800000000", nbf: "1800000100", exp: "1800000400"))
        #expect(F.failure(token, now: Instant(secondsSinceEpoch: 1_800_000_069)) == .notYetValid)
        #expect(F.failure(token, now: Instant(secondsSinceEpoch: 1_800_000_070)) == nil)
        let early = try F.forge(claims: F.claims(nbf: "1800000031"))
        #expect(F.failure(early) == .notYetValid)
        #expect(F.failure(try F.forge(claims: F.claims(nbf: "1800000030"))) == nil)
    }

    /// tokens.md step 4: `iat <= now + leeway`. Without it a key holder could date a token days
    /// ahead with `exp - iat` within the hour and `nbf` now, and it would live for days.
    @Test func issuedAtHonoursTheLeeway() throws {
        #expect(F.failure(try F.forge(claims: F.claims(iat: "1800000030", nbf: "1800000000", exp: "1800000300"))) == nil)
        #expect(F.failure(try F.forge(claims: F.claims(iat: "1800000031", nbf: "1800000000", exp: "1800000300")))
            == .issuedInFuture)
        let datedAhead = try F.forge(claims: F.claims(iat: "1800259200", nbf: "1800000000", exp: "1800262800"))
        #expect(F.failure(datedAhead) == .issuedInFuture)
        #expect(F.failure(datedAhead, now: Instant(secondsSinceEpoch: 1_800_259_170)) == nil)
    }

    @Test func refusesLifetimesAboveAnHour() throws {
        #expect(F.failure(try F.forge(claims: F.claims(exp: "1800003600"))) == nil)
        #expect(F.failure(try F.forge(claims: F.claims(exp: "1800003601"))) == .lifetimeTooLong)
        #expect(F.failure(try F.forge(claims: F.claims(iat: "-9223372036854775808", exp: "9223372036854775807")))
            == .lifetimeTooLong)
    }

    @Test(arguments: [#""other""#, #"["edge"]"#, #""Edge""#, "null"])
    func refusesAnotherAudience(aud: String) throws {
        #expect(F.failure(try F.forge(claims: F.claims(aud: aud))) == .audience)
    }

    @Test func refusesMissingAudience() throws {
        let claims = F.claims().replacingOccurrences(of: #""aud":"edge","#, with: "")
        #expect(F.failure(try F.forge(claims: claims)) == .audience)
    }

    @Test(arguments: [("1800000300.0", "1800000000"), ("1.8000003e9", "1800000000"), (#""1800000300""#, "1800000000"),
                      ("1800000300", "null"), ("1800000300", "true")])
    func refusesNonIntegerTimes(exp: String, iat: String) throws {
        #expect(F.failure(try F.forge(claims: F.claims(iat: iat, exp: exp))) == .claimTypes)
    }

    @Test func refusesIntegersBeyond64Bits() throws {
        // The parser keeps it as an approximate number, which is not an integer (step 4).
        #expect(F.failure(try F.forge(claims: F.claims(exp: "99999999999999999999"))) == .claimTypes)
        #expect(F.failure(try F.forge(claims: F.claims(exp: "1e400"))) == .claimTypes)
    }

    @Test func refusesMistypedPaths() throws {
        #expect(F.failure(try F.forge(claims: F.claims(paths: #""/content/monthly/2012-02/issue.pdf""#))) == .claimTypes)
        #expect(F.failure(try F.forge(claims: F.claims(paths: #"["/a", 1]"#))) == .claimTypes)
    }

    @Test func refusesTokensAbove4KiB() throws {
        let longPaths = "[" + (0..<200).map { #""/content/p\#($0)""# }.joined(separator: ",") + "]"
        let token = try F.forge(claims: F.claims(paths: longPaths))
        #expect(token.utf8.count > 4096)
        #expect(F.failure(token) == .tooLong)
    }

    @Test(arguments: TokenFixture.requestTargets)
    func authorisesOnlyListedSafePaths(target: String, expected: TokenFailure?) throws {
        let token = try F.issue().token
        #expect(F.authorizeFailure(token, target: target) == expected)
    }

    @Test(arguments: [("GET", nil), ("HEAD", nil), (nil, nil), ("POST", TokenFailure.method), ("PUT", .method),
                      ("DELETE", .method), ("get", .method), ("OPTIONS", .method)] as [(String?, TokenFailure?)])
    func allowsOnlyGetAndHead(method: String?, expected: TokenFailure?) throws {
        #expect(F.authorizeFailure(try F.issue().token, target: F.path, method: method) == expected)
    }

    @Test func classifiesFailuresAs401Or403() {
        let forbidden = TokenFailure.allCases.filter(\.isForbidden)
        #expect(Set(forbidden) == [.pathMissing, .pathRefused, .pathNotGranted, .method])
        #expect(TokenFailure.signature.httpStatus == 401)
        #expect(TokenFailure.method.httpStatus == 403)
    }
}

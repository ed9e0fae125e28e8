import DownloadTokens
import GatewayCrypto
import IssueCatalog
import Wire

/// Shared fixtures for the token tests: keys, a fixed clock, and a forger that signs any header
/// and claims text so each attack can be written as the bytes an attacker would send.
enum TokenFixture {
    static let now = Instant(secondsSinceEpoch: 1_800_000_000)
    static let secret = [UInt8](repeating: 0x42, count: 32)
    static let otherSecret = [UInt8](repeating: 0x17, count: 32)
    static let keys = try! TokenKeySet(keys: [TokenKey(kid: "k1", secret: secret)])
    static let path = "/content/monthly/2012-02/issue.pdf"
    static let paths = [path, "/content/monthly/2012-02/cover image.jpg"]

    static func signer(ttl: Int64 = 300, keys: TokenKeySet = keys) -> TokenSigner {
        try! TokenSigner(keys: keys, issuer: "issue-gateway", lifetimeSeconds: ttl)
    }

    static func verifier(_ keys: TokenKeySet = keys) -> TokenVerifier { TokenVerifier(keys: keys) }

    static func issue(now: Instant = now) throws -> SignedDownloadToken {
        try signer().sign(subject: "acct-1", publication: "monthly", issue: "2012-02", paths: paths,
                          now: now, random: SystemRandom())
    }

    static func header(kid: String = "k1") -> String { #"{"alg":"HS256","typ":"JWT","kid":"\#(kid)"}"# }

    static func claims(aud: String = #""edge""#, iat: String = "1800000000", nbf: String = "1800000000",
                       exp: String = "1800000300", paths: String = #"["/content/monthly/2012-02/issue.pdf"]"#,
                       extra: String = "") -> String {
        #"{"iss":"issue-gateway","aud":\#(aud),"sub":"acct-1","pub":"monthly","issue":"2012-02","paths":\#(paths),"iat":\#(iat),"nbf":\#(nbf),"exp":\#(exp),"jti":"AAAAAAAAAAAAAAAAAAAAAA"\#(extra)}"#
    }

    /// Request targets for a token granting `paths`, and what step 5 says of each (tokens.md):
    /// the attack tests and the shared edge vectors (EdgeVectorSet) both use them.
    static let requestTargets: [(String, TokenFailure?)] = [
        ("/content/monthly/2012-02/issue.pdf", nil),
        ("/content/monthly/2012-02/issue.pdf?token=abc&x=1", nil),
        ("/content/monthly/2012-02/cover%20image.jpg", nil),
        ("/content/monthly/2012-03/issue.pdf", TokenFailure.pathNotGranted),
        ("/content/monthly/2012-02/../2012-03/issue.pdf", .pathRefused),
        ("/content/monthly/2012-02/%2e%2e/2012-02/issue.pdf", .pathRefused),
        ("/content/monthly/2012-02/%2E%2E/2012-02/issue.pdf", .pathRefused),
        ("/content/monthly//2012-02/issue.pdf", .pathRefused),
        ("/content/monthly/%2F2012-02/issue.pdf", .pathRefused),
        ("/content/monthly/2012-02/issue.pdf%00", .pathRefused),
        ("/content/monthly/2012-02%5cissue.pdf", .pathRefused),
        ("/content/monthly/2012-02\\issue.pdf", .pathRefused),
        ("/content/monthly/2012-02/issue.pdf%2", .pathRefused),
        ("/content/monthly/2012-02/issue%zz.pdf", .pathRefused),
        ("/content/monthly/2012-02/issue.pdf#x", .pathRefused),
        ("http://cdn/content/monthly/2012-02/issue.pdf", .pathRefused),
        ("/content/monthly/2012-02/issue%252epdf", .pathNotGranted),
        ("/content/monthly/2012-02/issue%2Epdf", nil),
        ("/content/monthly/2012-02/ISSUE.pdf", .pathNotGranted),
        ("/content/monthly/2012-02/issue.pdf/", .pathNotGranted),
        ("/content/monthly/2012-02/%C3%A9.pdf", .pathNotGranted),
        ("/content/monthly/2012-02/%FF.pdf", .pathNotGranted),
        ("", .pathRefused),
    ]

    /// Signs `header`.`claims` as given, byte for byte, with `secret`.
    static func forge(header: String = header(), claims: String = claims(), secret: [UInt8] = secret) throws -> String {
        try forge(headerBytes: Array(header.utf8), claimsBytes: Array(claims.utf8), secret: secret)
    }

    /// `forge` over bytes, for segments that are not UTF-8 at all.
    static func forge(headerBytes: [UInt8], claimsBytes: [UInt8], secret: [UInt8] = secret) throws -> String {
        let input = Base64URL.encode(headerBytes) + "." + Base64URL.encode(claimsBytes)
        return input + "." + Base64URL.encode(try HMACSHA256.authenticationCode(key: secret, message: input.utf8))
    }

    /// The failure `verify` throws, or nil when the token verifies.
    static func failure(_ token: String, now: Instant = now, keys: TokenKeySet = keys) -> TokenFailure? {
        do {
            _ = try verifier(keys).verify(token, now: now)
            return nil
        } catch {
            return error
        }
    }

    static func authorizeFailure(_ token: String, target: String, method: String? = "GET") -> TokenFailure? {
        do {
            _ = try verifier().authorize(token, requestTarget: target, method: method, now: now)
            return nil
        } catch {
            return error
        }
    }
}

/// Always yields the same byte: lets a test pin jti and generated keys.
struct RepeatingRandom: RandomBytesSource {
    var byte: UInt8
    func randomBytes(count: Int) throws(CryptoError) -> [UInt8] { [UInt8](repeating: byte, count: count) }
}

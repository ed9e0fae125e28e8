import DownloadTokens
import IssueCatalog
import Wire

/// One request an edge must decide, with the verdict tokens.md gives it (written by hand here,
/// never computed by the code under test): the shared vectors of deploy/edge/vectors.json.
struct EdgeVector {
    var name: String
    var authorization: String?
    var target: String?
    var method: String?
    /// nil: allowed (204).
    var reason: TokenFailure?

    var status: Int { reason?.httpStatus ?? 204 }
}

/// Every valid case and every attack of tokens.md as requests to an edge at `TokenFixture.now`,
/// with two keys configured (rotation: `k1` signs, the older `k0` still verifies).
enum EdgeVectorSet {
    typealias F = TokenFixture
    static let oldKey = try! TokenKey(kid: "k0", secret: F.otherSecret)
    static let keys = try! TokenKeySet(keys: [F.keys.signingKey, oldKey])
    static let now = F.now

    static func vectors() throws -> [EdgeVector] {
        var v: [EdgeVector] = []
        func bearer(_ name: String, _ token: String, target: String? = F.path, method: String? = "GET",
                    _ reason: TokenFailure?) {
            v.append(EdgeVector(name: name, authorization: "Bearer " + token, target: target, method: method, reason: reason))
        }
        func claims(_ name: String, _ claims: String, _ reason: TokenFailure?) throws {
            bearer(name, try F.forge(claims: claims), reason)
        }
        func header(_ name: String, _ header: String, _ reason: TokenFailure?) throws {
            bearer(name, try F.forge(header: header), reason)
        }
        let t = now.secondsSinceEpoch
        func times(iat: Int64 = 0, nbf: Int64 = 0, exp: Int64 = 300) -> String {
            F.claims(iat: String(t + iat), nbf: String(t + nbf), exp: String(t + exp))
        }

        // Valid: a token the gateway's own signer issues, in every way a reader may send it.
        let issued = try F.signer().sign(subject: "acct-1", publication: "monthly", issue: "2012-02", paths: F.paths,
                                         now: now, random: RepeatingRandom(byte: 7)).token
        bearer("issued token, GET", issued, nil)
        bearer("issued token, HEAD", issued, method: "HEAD", nil)
        bearer("issued token, no method given (GET)", issued, method: nil, nil)
        v.append(EdgeVector(name: "issued token in the query", authorization: nil, target: F.path + "?token=" + issued,
                            method: "GET", reason: nil))
        v.append(EdgeVector(name: "bearer scheme in another case, extra blanks", authorization: "  bEARER   \(issued) ",
                            target: F.path, method: "GET", reason: nil))
        v.append(EdgeVector(name: "Bearer wins over a garbage query token", authorization: "Bearer " + issued,
                            target: F.path + "?token=garbage", method: "GET", reason: nil))
        v.append(EdgeVector(name: "another scheme is passed over for the query token", authorization: "Basic dXNlcjpwYXNz",
                            target: F.path + "?a=1&token=\(issued)&b", method: "GET", reason: nil))
        bearer("rotation: token signed by the older key k0", try F.forge(header: F.header(kid: "k0"), secret: F.otherSecret), nil)
        bearer("percent-encoded space in a granted path", issued, target: "/content/monthly/2012-02/cover%20image.jpg", nil)
        bearer("percent-encoded dot decodes to a granted path", issued, target: "/content/monthly/2012-02/issue%2Epdf", nil)
        try header("typ absent", #"{"alg":"HS256","kid":"k1"}"#, nil)
        try header("typ jwt in lower case", #"{"alg":"HS256","typ":"jwt","kid":"k1"}"#, nil)
        try claims("unknown claims are ignored", F.claims(extra: #","x":{"y":[1,2.5,null]}"#), nil)
        try claims("escaped names and values", #"{"\u0069ss":"issue-gateway","aud":"\u0065dge","sub":"acct-\ud83d\ude00","pub":"monthly","issue":"2012-02","paths":["\/content\/monthly\/2012-02\/issue.pdf"],"iat":1800000000,"nbf":1800000000,"exp":1800000300,"jti":"AAAAAAAAAAAAAAAAAAAAAA"}"#, nil)

        // Step 4 edges of the window, each side of the 30 s leeway.
        try claims("expired 29 s ago: inside the leeway", times(iat: -329, nbf: -329, exp: -29), nil)
        try claims("expired 30 s ago: outside the leeway", times(iat: -330, nbf: -330, exp: -30), .expired)
        try claims("long expired", times(iat: -86400, nbf: -86400, exp: -86100), .expired)
        try claims("nbf 30 s ahead: inside the leeway", times(nbf: 30), nil)
        try claims("nbf 31 s ahead", times(nbf: 31), .notYetValid)
        try claims("iat 30 s ahead: inside the leeway", times(iat: 30), nil)
        try claims("iat in the future (31 s ahead)", times(iat: 31), .issuedInFuture)
        try claims("iat three days ahead, nbf now, exp an hour after iat", times(iat: 259_200, exp: 262_800), .issuedInFuture)
        try claims("lifetime exactly 3600 s", times(exp: 3600), nil)
        try claims("lifetime 3601 s", times(exp: 3601), .lifetimeTooLong)
        try claims("lifetime from Int64.min to Int64.max", F.claims(iat: "-9223372036854775808", exp: "9223372036854775807"), .lifetimeTooLong)
        try claims("lifetime overflows below Int64.min", F.claims(iat: "1", exp: "-9223372036854775808"), .lifetimeTooLong)
        try claims("huge iat and exp 3600 s apart (exact arithmetic)",
                   F.claims(iat: "9223372036854771000", exp: "9223372036854774600"), .issuedInFuture)
        try claims("huge iat and exp 3601 s apart (exact arithmetic)",
                   F.claims(iat: "9223372036854771000", exp: "9223372036854774601"), .lifetimeTooLong)

        // Finding the token.
        v.append(EdgeVector(name: "no token", authorization: nil, target: F.path, method: "GET", reason: .missingToken))
        v.append(EdgeVector(name: "Bearer with nothing after it", authorization: "Bearer ", target: F.path, method: "GET",
                            reason: .missingToken))
        v.append(EdgeVector(name: "empty query token", authorization: nil, target: F.path + "?token=", method: "GET",
                            reason: .missingToken))
        v.append(EdgeVector(name: "two query tokens", authorization: nil, target: F.path + "?token=\(issued)&token=\(issued)",
                            method: "GET", reason: .ambiguousToken))
        v.append(EdgeVector(name: "bad escape in the query token", authorization: nil, target: F.path + "?token=%zz",
                            method: "GET", reason: .queryEncoding))
        bearer("request target over 8 KiB", issued, target: F.path + "?pad=" + String(repeating: "a", count: 8200), .requestTooLong)

        // Step 1.
        let genuine = try F.forge()
        let parts = genuine.split(separator: ".").map(String.init)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = alphabet.firstIndex(of: genuine.last!)!
        bearer("non-canonical trailing bits in the signature", String(genuine.dropLast()) + String(alphabet[last | 1]), .base64)
        bearer("padding after the signature", genuine + "=", .base64)
        bearer("padded header", [parts[0] + String(repeating: "=", count: (4 - parts[0].count % 4) % 4), parts[1], parts[2]]
            .joined(separator: "."), .base64)
        bearer("standard-alphabet character", "ey+J." + parts[1] + "." + parts[2], .base64)
        let oneMod4 = parts[0] + String(repeating: "A", count: (5 - parts[0].count % 4) % 4)
        precondition(oneMod4.count % 4 == 1)
        bearer("segment of length 1 mod 4", oneMod4 + "." + parts[1] + "." + parts[2], .base64)
        bearer("two segments", parts[0] + "." + parts[1], .segments)
        bearer("four segments", genuine + ".e30", .segments)
        let longPaths = "[" + (0..<200).map { #""/content/p\#($0)""# }.joined(separator: ",") + "]"
        try claims("token over 4 KiB", F.claims(paths: longPaths), .tooLong)

        // Step 2.
        for alg in [#""none""#, #""HS512""#, #""RS256""#, #""hs256""#, #"["HS256"]"#] {
            try header("alg \(alg)", #"{"alg":\#(alg),"typ":"JWT","kid":"k1"}"#, .algorithm)
        }
        try header("alg missing", #"{"typ":"JWT","kid":"k1"}"#, .algorithm)
        bearer("unsigned alg none token", Base64URL.encode(#"{"alg":"none","kid":"k1"}"#.utf8) + "."
            + Base64URL.encode(F.claims().utf8) + ".", .algorithm)
        for name in JOSEHeaderNames.forbidden {
            try header("\(name) in the header", #"{"alg":"HS256","typ":"JWT","kid":"k1","\#(name)":"x"}"#, .forbiddenHeader)
        }
        try header("typ at+jwt", #"{"alg":"HS256","typ":"at+jwt","kid":"k1"}"#, .tokenType)
        try header("kid missing", #"{"alg":"HS256","typ":"JWT"}"#, .missingKid)
        try header("kid a number", #"{"alg":"HS256","kid":7}"#, .missingKid)
        for kid in ["k2", "../../etc/passwd", "__proto__", "constructor", "hasOwnProperty", "0", "K1"] {
            try header("unknown kid \(kid)", F.header(kid: kid), .unknownKid)
        }
        try header("duplicate alg", #"{"alg":"HS256","alg":"none","kid":"k1"}"#, .duplicateHeaderName)
        try header("duplicate kid", #"{"alg":"HS256","kid":"k1","kid":"k0"}"#, .duplicateHeaderName)
        try header("duplicate alg, one spelt with escapes", #"{"alg":"none","\u0061lg":"HS256","kid":"k1"}"#, .duplicateHeaderName)
        try header("header an array", #"["HS256"]"#, .headerJSON)
        try header("header truncated", #"{"alg":"HS256","kid":"k1""#, .headerJSON)
        try header("header with a BOM", "\u{FEFF}" + F.header(), .headerJSON)
        try header("header with a comment", #"{"alg":"HS256",/*x*/"kid":"k1"}"#, .headerJSON)
        try header("header with a trailing comma", #"{"alg":"HS256","kid":"k1",}"#, .headerJSON)
        bearer("header not UTF-8", try F.forge(headerBytes: Array(#"{"alg":"HS256","kid":"k1","x":""#.utf8) + [0xC0, 0xAF, 0x22, 0x7D],
                                               claimsBytes: Array(F.claims().utf8)), .headerJSON)

        // Step 3.
        let tampered = Base64URL.encode(F.claims(paths: #"["/content/monthly/2012-03/issue.pdf"]"#).utf8)
        bearer("tampered claims", [parts[0], tampered, parts[2]].joined(separator: "."), .signature)
        var flipped = Array(genuine.utf8)
        let dot = flipped.lastIndex(of: UInt8(ascii: "."))!
        flipped[dot + 1] = flipped[dot + 1] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        bearer("tampered signature", String(decoding: flipped, as: UTF8.self), .signature)
        bearer("signed with another secret under kid k1", try F.forge(secret: F.otherSecret), .signature)
        bearer("signature removed", parts[0] + "." + parts[1] + ".", .signature)
        bearer("signature truncated", parts[0] + "." + parts[1] + "." + String(parts[2].dropLast(3)), .signature)

        // Step 4, the shape.
        try claims("claims an array", "[]", .claimsJSON)
        try claims("claims with trailing text", F.claims() + " x", .claimsJSON)
        try claims("duplicate aud", F.claims(extra: #","aud":"other""#), .duplicateClaimName)
        try claims("duplicate exp", F.claims(extra: #","exp":9999999999"#), .duplicateClaimName)
        try claims("duplicate name inside a nested object", F.claims(extra: #","x":{"a":1,"a":2}"#), .duplicateClaimName)
        try claims("unpaired surrogate escape", F.claims(extra: #","x":"\ud800""#), .claimsJSON)
        try claims("lone low surrogate escape", F.claims(extra: #","x":"\udc00x""#), .claimsJSON)
        try claims("escaped backslash before u-d800 is text, not a surrogate", F.claims(extra: #","x":"\\ud800""#), nil)
        // RFC 8259 §6: past 64 bits or past the doubles a number is kept, not refused; it is no integer.
        try claims("integer beyond 64 bits", F.claims(exp: "99999999999999999999"), .claimTypes)
        try claims("number beyond the doubles in another claim", F.claims(extra: #","x":1e400"#), nil)
        try claims("integer beyond 64 bits in another claim", F.claims(extra: #","x":-99999999999999999999"#), nil)
        try claims("nesting 9 deep", F.claims(extra: #","x":[[[[[[[[1]]]]]]]]"#), .claimsJSON)
        try claims("nesting 8 deep", F.claims(extra: #","x":[[[[[[[1]]]]]]]"#), nil)
        try claims("leading zero", F.claims(exp: "01800000300"), .claimsJSON)
        try claims("fraction without digits", F.claims(extra: #","x":1."#), .claimsJSON)
        try claims("fraction without an integer part", F.claims(extra: #","x":.5"#), .claimsJSON)
        try claims("negative leading zero", F.claims(extra: #","x":-01"#), .claimsJSON)
        try claims("duplicate __proto__", F.claims(extra: #","__proto__":1,"__proto__":2"#), .duplicateClaimName)
        try claims("duplicate name, one escaped, beside a colon in a value",
                   F.claims(extra: #","x":"a:b","\u0078":1"#), .duplicateClaimName)
        try claims("colons and braces inside strings, no escapes", F.claims(extra: #","x":"{:}[,]","y":[{"x":"]"}]"#), nil)
        try claims("duplicate after colons inside strings, no escapes", F.claims(extra: #","x":"a:b","y":{"z":":","z":1}"#),
                   .duplicateClaimName)
        try claims("colons and braces inside strings", F.claims(extra: #","x":"{:}[,]","y":[{"x":"\"}"}]"#), nil)
        for aud in [#""other""#, #"["edge"]"#, #""Edge""#, "null"] {
            try claims("aud \(aud)", F.claims(aud: aud), .audience)
        }
        try claims("aud missing", F.claims().replacingOccurrences(of: #""aud":"edge","#, with: ""), .audience)
        for (exp, iat) in [("1800000300.0", "1800000000"), ("1.8000003e9", "1800000000"), (#""1800000300""#, "1800000000"),
                           ("1800000300", "null"), ("1800000300", "true")] {
            try claims("exp \(exp), iat \(iat)", F.claims(iat: iat, exp: exp), .claimTypes)
        }
        try claims("paths a string", F.claims(paths: #""/content/monthly/2012-02/issue.pdf""#), .claimTypes)
        try claims("paths holding a number", F.claims(paths: #"["/a", 1]"#), .claimTypes)
        try claims("jti missing", F.claims().replacingOccurrences(of: #","jti":"AAAAAAAAAAAAAAAAAAAAAA""#, with: ""), .claimTypes)

        // Step 5: the path and the method.
        for (target, reason) in F.requestTargets { bearer("path \(target)", issued, target: target, reason) }
        for method in ["POST", "PUT", "DELETE", "get", "OPTIONS"] { bearer("method \(method)", issued, method: method, .method) }
        bearer("no request target", issued, target: nil, .pathMissing)
        return v
    }
}

/// tokens.md step 2's forbidden header parameters, as the vectors name them.
enum JOSEHeaderNames {
    static let forbidden = ["jku", "jwk", "x5u", "x5c", "crit"]
}

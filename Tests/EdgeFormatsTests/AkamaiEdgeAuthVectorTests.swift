import EdgeFormats
import Foundation
import Testing
import Wire

/// edge-vectors.json, `akamaiEdgeAuth` (akamai-edgeauth 0.3.2, cross-checked with
/// akamai-authtoken): every MAC and token, and the query and cookie the gateway hands out.
@Suite struct AkamaiEdgeAuthVectorTests {
    static let akamai = EdgeVectorFile.keys["akamai"] as! [String: String]
    static func key(_ name: String) -> [UInt8] { Hex.decode(akamai[name]!)! }

    @Test func everyMACAndTokenIsReproduced() throws {
        let vectors = EdgeVectorFile.section("akamaiEdgeAuth")
        #expect(vectors.count == 5)
        for vector in vectors {
            let input = vector["input"] as! [String: Any]
            let key = Self.key(input["keyHex"] as! String)
            let exp = (input["exp"] as! NSNumber).int64Value
            let name = vector["name"] as! String
            #expect(try AkamaiEdgeAuth.hmac(vector["stringToMac"] as! String, key: key) == vector["hmacHex"] as! String, "\(name)")
            let token: String
            switch (input["kind"] as! String, input["target"], input["st"]) {
            case ("acl", let paths as [String], is NSNull):
                token = try AkamaiEdgeAuth.aclToken(encodedPaths: paths, expires: exp, key: key)
            case ("url", let path as String, is NSNull):
                token = try AkamaiEdgeAuth.urlToken(encodedPath: path, expires: exp, key: key)
            default:
                // `st` and the folder wildcard are forms the gateway never sends (tokens.md: no
                // start time, the ACL lists paths exactly); their MAC is checked above, and the
                // token is the MACed text with it.
                token = (vector["stringToMac"] as! String) + "~hmac=" + (try AkamaiEdgeAuth.hmac(vector["stringToMac"] as! String, key: key))
            }
            #expect(token == vector["token"] as! String, "\(name)")
            #expect("__token__=" + token == vector["query"] as! String)
            #expect("__token__=" + token == vector["cookie"] as! String)
        }
    }

    @Test func theIssueGrantCarriesTheVectorsACLTokenInQueryAndCookie() throws {
        let vector = EdgeVectorFile.section("akamaiEdgeAuth").first { $0["name"] as? String == "acl-exact-paths" }!
        let paths = (vector["input"] as! [String: Any])["target"] as! [String]
        let secrets = "a1:\(Self.akamai["key_hex"]!),a2:\(Self.akamai["transition_key_hex"]!)"
        let query = try EdgeURLSigner(format: .akamaiEdgeAuth, delivery: .query, cdnBase: "https://cdn.example.com",
                                      secrets: secrets)
        let grant = try query.grant(paths: paths, issuedAt: 1767225600, expires: 1767225900, jwsToken: "jws")
        #expect(grant.urls == paths.map { "https://cdn.example.com\($0)?\(vector["query"] as! String)" })
        #expect(grant.cookies == nil)

        let cookie = try EdgeURLSigner(format: .akamaiEdgeAuth, delivery: .cookie, cdnBase: "https://cdn.example.com",
                                       secrets: secrets)
        let cookieGrant = try cookie.grant(paths: paths, issuedAt: 1767225600, expires: 1767225900, jwsToken: "jws")
        #expect(cookieGrant.urls == paths.map { "https://cdn.example.com\($0)" })
        #expect(cookieGrant.cookies == [EdgeCookie(name: "__token__", value: vector["token"] as! String,
                                                   domain: "cdn.example.com", path: "/content/monthly/2012-02/")])
        #expect(cookieGrant.cookies?.first?.setCookie == (vector["cookie"] as! String) + "; Domain=cdn.example.com; Path=/content/monthly/2012-02/; Secure; HttpOnly")
    }

    /// The transition key signs once it is listed first (rotation), as the vector made with it says.
    @Test func theSecondKeySignsOnceListedFirst() throws {
        let vector = EdgeVectorFile.section("akamaiEdgeAuth").first { $0["name"] as? String == "acl-exact-paths-transition-key" }!
        let paths = (vector["input"] as! [String: Any])["target"] as! [String]
        let signer = try EdgeURLSigner(format: .akamaiEdgeAuth, delivery: .query, cdnBase: "https://cdn.example.com",
                                       secrets: "a2:\(Self.akamai["transition_key_hex"]!),a1:\(Self.akamai["key_hex"]!)")
        #expect(try signer.grant(paths: paths, issuedAt: 1767225600, expires: 1767225900, jwsToken: "jws").urls[0].hasSuffix("?" + (vector["query"] as! String)))
    }

    /// Encoding leaves `~` in a path: such an asset cannot be in the ACL and gets its own URL
    /// token (the MAC over `exp=…~url=<encoded path>`), in its query with either delivery.
    @Test func anAssetWithATildeGetsItsOwnURLToken() throws {
        let key = Self.key("key_hex")
        let paths = ["/content/m/1/issue.pdf", "/content/m/1/~notes é.txt"]
        for delivery in EdgeDelivery.allCases {
            let signer = try EdgeURLSigner(format: .akamaiEdgeAuth, delivery: delivery, cdnBase: "https://cdn.example.com",
                                           secrets: "a1:\(Self.akamai["key_hex"]!)")
            let grant = try signer.grant(paths: paths, issuedAt: 1767225600, expires: 1767225900, jwsToken: "jws")
            let acl = try AkamaiEdgeAuth.aclToken(encodedPaths: ["/content/m/1/issue.pdf"], expires: 1767225900, key: key)
            let own = try AkamaiEdgeAuth.urlToken(encodedPath: "/content/m/1/~notes%20%C3%A9.txt", expires: 1767225900, key: key)
            #expect(own == "exp=1767225900~hmac=" + (try AkamaiEdgeAuth.hmac("exp=1767225900~url=/content/m/1/~notes%20%C3%A9.txt", key: key)))
            #expect(grant.urls[1] == "https://cdn.example.com/content/m/1/~notes%20%C3%A9.txt?__token__=" + own)
            if delivery == .query {
                #expect(grant.urls[0] == "https://cdn.example.com/content/m/1/issue.pdf?__token__=" + acl)
            } else {
                #expect(grant.urls[0] == "https://cdn.example.com/content/m/1/issue.pdf")
                #expect(grant.cookies?.map(\.value) == [acl])
            }
        }
    }

    @Test func keysThatAreNotEvenHexOfSixteenBytesAreRefused() {
        for bad in ["a1:abc", "a1:" + String(repeating: "ab", count: 15), "a1:" + String(repeating: "zz", count: 16)] {
            #expect(throws: EdgeFormatError.self, "\(bad)") {
                try EdgeURLSigner(format: .akamaiEdgeAuth, delivery: .query, cdnBase: "https://cdn.example.com", secrets: bad)
            }
        }
    }
}

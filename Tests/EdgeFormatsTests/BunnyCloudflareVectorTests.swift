import EdgeFormats
import Foundation
import GatewayCrypto
import Testing
import Wire

/// edge-vectors.json, `bunny` (Bunny's token.py) and `cloudflare` (Cloudflare's documented
/// snippet): the optional formats, byte for byte.
@Suite struct BunnyCloudflareVectorTests {
    static var bunnyKey: String { (EdgeVectorFile.keys["bunny"] as! [String: String])["securityKey"]! }
    static var cloudflareSecret: String { (EdgeVectorFile.keys["cloudflare"] as! [String: String])["secret"]! }

    @Test func everyBunnyVectorIsReproduced() throws {
        let vectors = EdgeVectorFile.section("bunny")
        #expect(vectors.count == 2)
        for vector in vectors {
            let mac = try HMACSHA256.authenticationCode(key: Array(Self.bunnyKey.utf8), message: Array((vector["stringToMac"] as! String).utf8))
            #expect("HS256-" + Base64URL.encode(mac) == vector["token"] as! String, "\(vector["name"]!)")
        }
        // The exact-path form is the one the gateway hands out.
        let exact = vectors.first { $0["name"] as? String == "query-token-exact-path" }!
        #expect(try BunnyTokenAuth.token(encodedPath: "/content/monthly/2012-02/issue.pdf", expires: 1767225900, key: Self.bunnyKey)
                == exact["token"] as! String)
        let signer = try EdgeURLSigner(format: .bunny, delivery: .query, cdnBase: "https://issues.b-cdn.net",
                                       secrets: "b1:\(Self.bunnyKey)")
        #expect(try signer.grant(paths: ["/content/monthly/2012-02/issue.pdf"], issuedAt: 1767225600, expires: 1767225900,
                                 jwsToken: "jws").urls == [exact["url"] as! String])
    }

    @Test func theCloudflareVectorIsReproduced() throws {
        let vector = EdgeVectorFile.section("cloudflare")[0]
        let input = vector["input"] as! [String: Any]
        let iat = (input["timestamp"] as! NSNumber).int64Value
        let signer = try EdgeURLSigner(format: .cloudflareHMAC, delivery: .query, cdnBase: "https://issues.example.com",
                                       secrets: "c1:\(Self.cloudflareSecret)")
        #expect(try signer.grant(paths: [input["path"] as! String], issuedAt: iat, expires: iat + 300, jwsToken: "jws").urls
                == [vector["url"] as! String])
        let mac = try HMACSHA256.authenticationCode(key: Array(Self.cloudflareSecret.utf8), message: Array((vector["stringToMac"] as! String).utf8))
        #expect(Data(mac).base64EncodedString() == vector["macBase64"] as! String)
    }

    @Test func textSecretsAreLongPrintableAndQueryOnly() {
        for format in [EdgeFormat.bunny, .cloudflareHMAC] {
            #expect(throws: EdgeFormatError.self) { try EdgeURLSigner(format: format, delivery: .query, cdnBase: "https://x.test", secrets: "k:short") }
            #expect(throws: EdgeFormatError.cookiesNotSupported(format)) {
                try EdgeURLSigner(format: format, delivery: .cookie, cdnBase: "https://x.test", secrets: "k:\(Self.bunnyKey)")
            }
        }
    }
}

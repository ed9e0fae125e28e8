import Foundation
@testable import GatewayConfiguration
import GatewayCrypto
import HTTPServer
import Testing
import Wire
import GatewayTesting

/// The token route in each CDN format (tokens.md, What the token route answers): the JWS always,
/// `format`, one URL per asset in asset order, cookies for cookie delivery; and the settings the
/// gateway refuses to start with.
@Suite struct EdgeFormatRouteTests {
    private func answer(_ configure: @escaping (inout Configuration) -> Void) throws -> (h: H, json: [String: Any]) {
        let h = try H(configure: configure)
        try h.seedCatalog()
        try EdgeFormatFixtures.publishOddIssue(h)
        let response = try h.token(for: try h.createAccount(), issue: "2026-03")
        try #require(response.status == 200, "\(response.text)")
        return (h, response.json)
    }

    @Test func jwsURLsAreEncodedAndCarryTheToken() throws {
        let (_, json) = try answer { _ in }
        let token = try #require(json["token"] as? String)
        #expect(json["format"] as? String == "jws")
        #expect(json["cookies"] == nil)
        #expect(json["urls"] as? [String] == ["http://cdn.test/content/monthly/2026-03/issue.pdf?token=\(token)",
                                              "http://cdn.test/content/monthly/2026-03/Extras/read%20me%20%C3%A9.txt?token=\(token)"])
    }

    @Test func akamaiQueryURLsCarryOneACLTokenForTheIssue() throws {
        let key = String(repeating: "0f", count: 16)
        let (_, json) = try answer { $0.edge.format = .akamaiEdgeAuth; $0.edge.secrets = "a1:\(key)" }
        #expect(json["format"] as? String == "akamai-edgeauth")
        let body = "exp=1772323500~acl=/content/monthly/2026-03/issue.pdf!/content/monthly/2026-03/Extras/read%20me%20%C3%A9.txt"
        let token = body + "~hmac=" + Hex.encode(try HMACSHA256.authenticationCode(key: Hex.decode(key)!, message: Array(body.utf8)))
        #expect(json["urls"] as? [String] == ["http://cdn.test/content/monthly/2026-03/issue.pdf?__token__=\(token)",
                                              "http://cdn.test/content/monthly/2026-03/Extras/read%20me%20%C3%A9.txt?__token__=\(token)"])
    }

    /// Cookie delivery with an EC key (SEC1 PEM): plain URLs and the folder's custom-policy
    /// cookies, whose policy ends at the JWS's `exp` and whose signature verifies.
    @Test func cloudFrontCookiesCoverTheIssuesFolderUntilTheTokensExpiry() throws {
        let key = try EdgeFormatFixtures.cloudFrontKeyFile("ec", form: "privateKeySec1Pem")
        let (_, json) = try answer {
            $0.edge.format = .cloudfront; $0.edge.delivery = .cookie
            $0.edge.keyId = key.keyPairId; $0.edge.privateKeyPath = key.path
        }
        #expect(json["format"] as? String == "cloudfront")
        #expect(json["urls"] as? [String] == ["http://cdn.test/content/monthly/2026-03/issue.pdf",
                                              "http://cdn.test/content/monthly/2026-03/Extras/read%20me%20%C3%A9.txt"])
        let cookies = try #require(json["cookies"] as? [[String: Any]])
        #expect(cookies.map { $0["name"] as? String } == ["CloudFront-Policy", "CloudFront-Signature", "CloudFront-Key-Pair-Id",
                                                          "CloudFront-Hash-Algorithm"])
        for cookie in cookies {
            #expect(cookie["domain"] as? String == "cdn.test" && cookie["path"] as? String == "/content/monthly/2026-03/")
            #expect(cookie["secure"] as? Bool == true && cookie["httpOnly"] as? Bool == true && cookie.count == 6)
        }
        let value = { (i: Int) in cookies[i]["value"] as! String }
        let decode = { (text: String) in
            Data(base64Encoded: String(text.map { c -> Character in switch c { case "-": "+"; case "_": "="; case "~": "/"; default: c } }))
                .map(Array.init)
        }
        let policy = try #require(decode(value(0)))
        #expect(String(decoding: policy, as: UTF8.self)
                == #"{"Statement":[{"Resource":"http://cdn.test/content/monthly/2026-03/*","Condition":{"DateLessThan":{"AWS:EpochTime":1772323500}}}]}"#)
        let publicKey = try #require(SignaturePublicKey(pem: key.publicKeyPEM))
        #expect(publicKey.verifies(try #require(decode(value(1))), over: policy, digest: .sha256))
        #expect(value(2) == key.keyPairId && value(3) == "SHA256")
    }

    /// RSA signs about 1 ms per asset: its answers come from the store pool, not the event loop
    /// (the fast path declines even with the facts in memory); P-256 signs in microseconds and
    /// keeps the fast path. Both answer a canned URL per asset.
    @Test(arguments: [("rsa", false), ("ec", true)])
    func slowSignaturesStayOffTheEventLoop(keyName: String, fast: Bool) throws {
        let key = try EdgeFormatFixtures.cloudFrontKeyFile(keyName, form: "privateKeyPkcs8Pem")
        let h = try H(configure: {
            $0.edge.format = .cloudfront; $0.edge.keyId = key.keyPairId; $0.edge.privateKeyPath = key.path; $0.edge.hash = .sha1
        })
        try h.seedCatalog()
        try EdgeFormatFixtures.publishOddIssue(h)
        let reader = try h.createAccount()
        let response = try h.token(for: reader, issue: "2026-03")
        let urls = try #require(response.json["urls"] as? [String])
        #expect(urls.count == 2 && response.json["cookies"] == nil)
        #expect(urls[1].hasPrefix("http://cdn.test/content/monthly/2026-03/Extras/read%20me%20%C3%A9.txt?Expires=1772323500&Signature="))
        #expect(urls.allSatisfy { $0.hasSuffix("&Key-Pair-Id=\(key.keyPairId)") }, "SHA-1: no Hash-Algorithm")
        var headers = HTTPHeaders()
        headers.append(name: "Authorization", value: "Bearer \(reader.token)")
        var request = HTTPRequest(method: "POST", target: "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-03/token",
                                  headers: headers)
        request.pathParameters = ["accountId": reader.id, "publicationId": "monthly", "issueId": "2026-03"]
        #expect((h.runtime.api.tokens.cachedTokenResponse(&request) != nil) == fast)
    }

    @Test func theGatewayRefusesToStartOnSettingsTheFormatCannotUse() throws {
        let secrets = try EdgeFormatFixtures.nginxSecrets()
        let unreadable = try EdgeFormatFixtures.cloudFrontKeyFile("rsa", form: "publicKeyPem")
        let refusals: [(String, (inout Configuration) -> Void)] = [
            ("no secrets", { $0.edge.format = .nginxSecureLink }),
            ("cookies for nginx", { $0.edge.format = .nginxSecureLink; $0.edge.secrets = secrets; $0.edge.delivery = .cookie }),
            ("cookies for jws", { $0.edge.delivery = .cookie }),
            ("a short nginx secret", { $0.edge.format = .nginxSecureLink; $0.edge.secrets = "n1:short" }),
            ("nginx secrets as Akamai keys", { $0.edge.format = .akamaiEdgeAuth; $0.edge.secrets = secrets }),
            ("no key file", { $0.edge.format = .cloudfront; $0.edge.keyId = "K1"; $0.edge.privateKeyPath = "/no/such/key.pem" }),
            ("no key at all", { $0.edge.format = .cloudfront; $0.edge.keyId = "K1" }),
            ("a public key", { $0.edge.format = .cloudfront; $0.edge.keyId = "K1"; $0.edge.privateKeyPath = unreadable.path }),
            ("no key id", { $0.edge.format = .cloudfront; $0.edge.privateKeyPath = unreadable.path }),
        ]
        for (name, configure) in refusals {
            #expect(throws: StartError.self, "\(name)") { try H(configure: configure) }
        }
    }

    /// deploy/cdn's example settings name only settings the gateway knows, and each names a format.
    @Test func theDeployedExamplesUseKnownSettings() throws {
        let folder = NginxEdge.repository.appendingPathComponent("deploy/cdn")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".env") }.sorted()
        #expect(files == ["akamai-edgeauth.env", "cloudfront.env", "nginx-secure-link.env"])
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let values = try ConfigFileParser.parse(text, path: file)
            #expect(Set(values.keys).isSubset(of: Configuration.variableNames), "\(file)")
            #expect(values["ISSUE_GATEWAY_EDGE_FORMAT"]?.value == String(file.dropLast(4)))
        }
    }
}

import EdgeFormats
import Testing

/// The settings a gateway refuses to start with (tokens.md, Configuration), the origin, paths
/// and the `jws` format's URLs.
@Suite struct EdgeURLSignerTests {
    static let nginxSecrets = "n1:dcQBIqSTbIiwCwpGyzJ8T501drjIg00xkz9sT0Duz20"

    @Test func cookiesOnlyForFormatsThatHaveThem() {
        #expect(throws: EdgeFormatError.cookiesNotSupported(.jws)) {
            try EdgeURLSigner(format: .jws, delivery: .cookie, cdnBase: "https://cdn.example.com")
        }
        #expect(throws: EdgeFormatError.cookiesNotSupported(.nginxSecureLink)) {
            try EdgeURLSigner(format: .nginxSecureLink, delivery: .cookie, cdnBase: "https://cdn.example.com", secrets: Self.nginxSecrets)
        }
    }

    @Test func aFormatWithoutItsKeyIsRefused() {
        #expect(throws: EdgeFormatError.missing("ISSUE_GATEWAY_EDGE_SECRETS")) {
            try EdgeURLSigner(format: .nginxSecureLink, delivery: .query, cdnBase: "https://cdn.example.com")
        }
        #expect(throws: EdgeFormatError.missing("ISSUE_GATEWAY_EDGE_SECRETS")) {
            try EdgeURLSigner(format: .akamaiEdgeAuth, delivery: .query, cdnBase: "https://cdn.example.com", secrets: " ")
        }
        #expect(throws: EdgeFormatError.missing("ISSUE_GATEWAY_EDGE_PRIVATE_KEY")) {
            try EdgeURLSigner(format: .cloudfront, delivery: .query, cdnBase: "https://cdn.example.com", keyId: "K1")
        }
        let pem = EdgeVectorFile.cloudFrontKey("ec")["privateKeyPkcs8Pem"]!
        #expect(throws: EdgeFormatError.missing("ISSUE_GATEWAY_EDGE_KEY_ID")) {
            try EdgeURLSigner(format: .cloudfront, delivery: .query, cdnBase: "https://cdn.example.com", privateKeyPEM: pem)
        }
        #expect(throws: EdgeFormatError.invalidKeyId) {
            try EdgeURLSigner(format: .cloudfront, delivery: .query, cdnBase: "https://cdn.example.com", keyId: "K 1",
                              privateKeyPEM: pem)
        }
        #expect(throws: EdgeFormatError.self) {
            try EdgeURLSigner(format: .cloudfront, delivery: .query, cdnBase: "https://cdn.example.com", keyId: "K1",
                              privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n")
        }
        #expect(throws: EdgeFormatError.self) {
            try EdgeURLSigner(format: .cloudfront, delivery: .query, cdnBase: "https://cdn.example.com", keyId: "K1",
                              privateKeyPEM: pem, hash: .md5)
        }
    }

    @Test func theCDNBaseIsAnOrigin() {
        #expect(EdgeOrigin("https://cdn.example.com/")?.text == "https://cdn.example.com")
        #expect(EdgeOrigin("http://127.0.0.1:8081")?.host == "127.0.0.1")
        #expect(EdgeOrigin("http://[::1]:8081")?.text == "http://[::1]:8081")
        for bad in ["https://cdn.example.com/content", "ftp://cdn", "https://", "https://a:b@cdn", "https://cdn?x",
                    "https://cdn:99999", "cdn.example.com", "https://cd n", "https://cd\"n", "https://cd_n", "http://[::g]"] {
            #expect(EdgeOrigin(bad) == nil, "\(bad)")
        }
        #expect(throws: EdgeFormatError.invalidOrigin) {
            try EdgeURLSigner(format: .jws, delivery: .query, cdnBase: "https://cdn.example.com/content")
        }
    }

    @Test func theCommonDirectoryIsComparedBySegment() {
        #expect(EdgePath.commonDirectory(["/content/monthly/2012-02/issue.pdf", "/content/monthly/2012-02/cover.jpg"])
                == "/content/monthly/2012-02/")
        #expect(EdgePath.commonDirectory(["/a/bc/x", "/a/b/y"]) == "/a/")
        #expect(EdgePath.commonDirectory(["/a/b/x"]) == "/a/b/")
        #expect(EdgePath.commonDirectory(["/x", "/a/y"]) == "/")
    }

    @Test func jwsURLsCarryTheTokenAfterTheEncodedPath() throws {
        let signer = try EdgeURLSigner(format: .jws, delivery: .query, cdnBase: "http://cdn.test")
        #expect(signer.format == .jws && signer.signsQuickly)
        #expect(try signer.grant(paths: ["/c/m/1/read me é.txt"], issuedAt: 0, expires: 1, jwsToken: "a.b.c")
                == EdgeGrant(urls: ["http://cdn.test/c/m/1/read%20me%20%C3%A9.txt?token=a.b.c"]))
    }
}

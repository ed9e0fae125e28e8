import Foundation
@testable import GatewayConfiguration
import HTTPServer
import IssueCatalog
import TestSupport
import Testing
import Wire
import GatewayTesting

/// Download tokens through the API (http-api.md; tokens.md): issued only for visible, entitled
/// issues, and checked by `GET /v1/edge/verify` as an nginx edge would ask.
@Suite struct TokenRouteTests {
    /// A token for the free issue 2026-02 of a fresh account, and the harness that issued it.
    private func freeIssueToken() throws -> (h: H, token: String, path: String) {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let response = try h.token(for: reader, issue: "2026-02")
        try #require(response.status == 200, "\(response.text)")
        return (h, try #require(response.json["token"] as? String), "/content/monthly/2026-02/issue.pdf")
    }

    private func verify(_ h: H, uri: String?, bearer: String? = nil, method: String? = nil) throws -> Int {
        var headers: [(String, String)] = []
        if let uri { headers.append(("X-Original-URI", uri)) }
        if let method { headers.append(("X-Original-Method", method)) }
        return try h.client.get("/v1/edge/verify", as: bearer, headers: headers).status
    }

    @Test func aTokenAnswerCarriesExpiryAndOneURLPerAsset() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        let response = try h.token(for: reader, issue: "2026-01")
        #expect(response.status == 200, "\(response.text)")
        let token = try #require(response.json["token"] as? String)
        #expect(token.split(separator: ".", omittingEmptySubsequences: false).count == 3)
        #expect(response.json["expiresAt"] as? String == "2026-03-01T00:05:00.000Z", "now + 300 s, RFC 3339 UTC with milliseconds")
        #expect(response.json["urls"] as? [String] == H.paidPaths.map { "\(H.cdnBaseURL)\($0)?token=\(token)" })
        for path in H.paidPaths {
            #expect(try verify(h, uri: path, bearer: token) == 204)
            #expect(try verify(h, uri: "\(path)?token=\(token)") == 204)
            #expect(try verify(h, uri: "\(path)?token=\(token)", method: "HEAD") == 204)
        }
        // A service key and the admin key may ask for the account too.
        let service = try h.createKey(#"{"role":"service"}"#)
        let path = "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-01/token"
        #expect(try h.client.post(path, as: service.secret).status == 200)
        #expect(try h.client.post(path, as: H.adminKey).status == 200)
    }

    @Test func tokensAreRefusedForIssuesTheReaderMayNotHaveOrCannotSee() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let paid = try h.token(for: reader, issue: "2026-01")
        #expect(paid.status == 403)
        #expect(paid.errorCode == "not_entitled")
        #expect(paid.json["error"].flatMap { ($0 as? [String: Any])?["reason"] as? String } == "noPurchase")
        // E16: scheduled, retracted and unknown issues are not there for readers.
        let scheduled = try h.token(for: reader, issue: "2026-04")
        #expect(scheduled.status == 404)
        #expect(scheduled.errorCode == "not_found")
        #expect(try h.token(for: reader, issue: "1999-01").status == 404)
        #expect(try h.token(for: reader, publication: "nowhere", issue: "2026-02").status == 404)
        #expect(try h.client.delete("/v1/publications/monthly/issues/2026-02", as: H.adminKey).status == 200)
        #expect(try h.token(for: reader, issue: "2026-02").status == 404, "retracted at once")
        // Entitled by a subscription: not even a subscriber gets a token for a scheduled issue.
        try h.subscribe(reader.id)
        #expect(try h.token(for: reader, issue: "2026-01").status == 200)
        #expect(try h.token(for: reader, issue: "2026-04").status == 404)
        // Once published (the clock reaches it) it is a subscriber's like any other... if the
        // subscription was active when it was published: it ended on 2026-03-15.
        h.clock.set(Instant(rfc3339: "2026-04-02T00:00:00Z")!)
        let late = try h.token(for: reader, issue: "2026-04")
        #expect(late.status == 403)
        #expect(late.json["error"].flatMap { ($0 as? [String: Any])?["reason"] as? String } == "notSubscribedWhenPublished")
    }

    @Test func tokenCountsAppearInMetrics() throws {
        let (h, token, path) = try freeIssueToken()
        #expect(try verify(h, uri: path, bearer: token) == 204)
        #expect(try verify(h, uri: path, bearer: "garbage") == 401)
        let metrics = try h.client.get("/metrics").text
        #expect(metrics.contains("issue_gateway_tokens_issued_total 1"))
        #expect(metrics.contains(#"issue_gateway_tokens_verified_total{result="allow"} 1"#))
        #expect(metrics.contains(#"issue_gateway_tokens_verified_total{result="segments"} 1"#))
    }

    @Test func theEdgeCheckRefusesMissingGarbageAndExpiredTokensWith401() throws {
        let (h, token, path) = try freeIssueToken()
        #expect(try verify(h, uri: path) == 401, "no token")
        #expect(try verify(h, uri: path, bearer: "garbage") == 401)
        #expect(try verify(h, uri: "\(path)?token=a.b.c") == 401)
        var tampered = Array(token)
        tampered[tampered.count - 2] = tampered[tampered.count - 2] == "A" ? "B" : "A"
        #expect(try verify(h, uri: path, bearer: String(tampered)) == 401, "bad signature")
        let unauthorized = try h.client.get("/v1/edge/verify", headers: [("X-Original-URI", path)])
        #expect(unauthorized.hasErrorShape)
        // Valid up to exp + 30 s of leeway (tokens.md step 4), refused after.
        h.clock.advance(seconds: 300 + 29)
        #expect(try verify(h, uri: path, bearer: token) == 204)
        h.clock.advance(seconds: 2)
        #expect(try verify(h, uri: path, bearer: token) == 401, "expired")
        #expect(try verify(h, uri: "\(path)?token=\(token)") == 401)
    }

    @Test func theEdgeCheckRefusesOtherPathsMethodsAndTraversalWith403() throws {
        let (h, token, path) = try freeIssueToken()
        #expect(try verify(h, uri: "/content/monthly/2026-01/issue.pdf", bearer: token) == 403, "another issue's file")
        #expect(try verify(h, uri: "/content/monthly/2026-01/issue.pdf?token=\(token)") == 403)
        #expect(try verify(h, uri: path, bearer: token, method: "POST") == 403)
        #expect(try verify(h, uri: path, bearer: token, method: "DELETE") == 403)
        let sneaky = [
            "/content/monthly/2026-02/../2026-01/issue.pdf",
            "/content/monthly/2026-02/%2e%2e/2026-02/issue.pdf",
            "/content/monthly/2026-02/%2E%2E/2026-02/issue.pdf",
            "/content/monthly//2026-02/issue.pdf",
            "/content/monthly/2026-02%2f..%2f2026-02/issue.pdf",
            "/content/monthly/2026-02/issue.pdf%00",
            "/content/monthly/2026-02\\issue.pdf",
        ]
        for uri in sneaky {
            #expect(try verify(h, uri: uri, bearer: token) == 403, "\(uri)")
        }
        #expect(try verify(h, uri: nil, bearer: token) == 403, "no X-Original-URI: nothing to authorise")
        let forbidden = try h.client.get("/v1/edge/verify", as: token, headers: [("X-Original-URI", "/content/x")])
        #expect(forbidden.hasErrorShape)
        #expect(try verify(h, uri: path, bearer: token) == 204, "the token still works for its own path")
    }

    @Test func gatewayTokensVerifyWithPyJWTAndPyJWTTokensPassTheGateway() throws {
        let h = try H()
        try h.seedCatalog()
        h.clock.set(SystemClock().now())  // PyJWT checks exp and iat against the real clock
        let reader = try h.createAccount()
        let response = try h.token(for: reader, issue: "2026-02")
        try #require(response.status == 200, "\(response.text)")
        let token = try #require(response.json["token"] as? String)
        let claims = try PyJWT.decode(token, secret: H.tokenSecret)
        #expect(claims["sub"] as? String == reader.id)
        #expect(claims["pub"] as? String == "monthly")
        #expect(claims["issue"] as? String == "2026-02")
        #expect(claims["aud"] as? String == "edge")
        #expect(claims["iss"] as? String == "issue-gateway")
        #expect(claims["paths"] as? [String] == ["/content/monthly/2026-02/issue.pdf"])
        let iat = try #require(claims["iat"] as? Int)
        #expect(claims["exp"] as? Int == iat + 300)
        #expect(claims["nbf"] as? Int == iat)
        #expect((claims["jti"] as? String)?.count == 22, "128 bits in base64url")
        let header = try PyJWT.header(token)
        #expect(header as NSDictionary == ["alg": "HS256", "typ": "JWT", "kid": H.tokenKid] as NSDictionary)
        #expect(throws: PyJWT.Failure.self) { try PyJWT.decode(token, secret: [UInt8](repeating: 1, count: 32)) }

        // And the other way: PyJWT signs with the gateway's key; the edge check accepts it.
        let now = SystemClock().now().secondsSinceEpoch
        let foreign = try PyJWT.encode(claims: [
            "iss": "issue-gateway", "aud": "edge", "sub": reader.id, "pub": "monthly", "issue": "2026-02",
            "paths": ["/content/monthly/2026-02/issue.pdf"], "iat": now, "nbf": now, "exp": now + 300, "jti": "AAAAAAAAAAAAAAAAAAAAAA",
        ], kid: H.tokenKid, secret: H.tokenSecret)
        #expect(try verify(h, uri: "/content/monthly/2026-02/issue.pdf", bearer: foreign) == 204)
        #expect(try verify(h, uri: "/content/monthly/2026-01/issue.pdf", bearer: foreign) == 403)
        let wrongKey = try PyJWT.encode(claims: ["aud": "edge", "iat": now, "nbf": now, "exp": now + 300, "paths": []],
                                        kid: H.tokenKid, secret: [UInt8](repeating: 2, count: 32))
        #expect(try verify(h, uri: "/content/monthly/2026-02/issue.pdf", bearer: wrongKey) == 401)
    }
}

import Testing
import DownloadTokens
import IssueCatalog
import Wire

@Suite struct TokenEdgeCheckTests {
    typealias F = TokenFixture

    private func decide(authorization: String? = nil, uri: String? = F.path, method: String? = "GET",
                        now: Instant = F.now) -> EdgeDecision {
        EdgeCheck.decide(authorization: authorization, originalURI: uri, originalMethod: method,
                         keys: F.keys, now: now)
    }

    @Test func allowsABearerTokenForItsPath() throws {
        let token = try F.issue().token
        let decision = decide(authorization: "Bearer \(token)")
        #expect(decision.httpStatus == 204)
        guard case .allow(let verified) = decision else { Issue.record("not allowed: \(decision)"); return }
        #expect(verified.claims.subject == "acct-1")
        #expect(decide(authorization: "bearer  \(token) ").httpStatus == 204)
    }

    @Test func takesTheTokenFromTheQueryWhenThereIsNoBearer() throws {
        let token = try F.issue().token
        #expect(decide(uri: F.path + "?token=\(token)") .httpStatus == 204)
        #expect(decide(uri: F.path + "?a=1&token=\(token)&b") .httpStatus == 204)
        #expect(decide(authorization: "Basic dXNlcjpwYXNz", uri: F.path + "?token=\(token)").httpStatus == 204)
        #expect(decide(uri: F.path + "?token=\(token.replacingDots())").httpStatus == 204)
    }

    @Test func bearerWinsOverTheQuery() throws {
        let token = try F.issue().token
        #expect(decide(authorization: "Bearer \(token)", uri: F.path + "?token=garbage").httpStatus == 204)
        #expect(decide(authorization: "Bearer garbage", uri: F.path + "?token=\(token)") == .unauthorized(.segments))
    }

    @Test func refusesMissingOrAmbiguousTokens() throws {
        let token = try F.issue().token
        #expect(decide() == .unauthorized(.missingToken))
        #expect(decide(authorization: "Bearer ") == .unauthorized(.missingToken))
        #expect(decide(uri: F.path + "?token=") == .unauthorized(.missingToken))
        #expect(decide(uri: F.path + "?tokens=\(token)") == .unauthorized(.missingToken))
        #expect(decide(uri: F.path + "?token=\(token)&token=\(token)") == .unauthorized(.ambiguousToken))
        #expect(decide(uri: F.path + "?token=%zz") == .unauthorized(.queryEncoding))
    }

    @Test func answers401ForBadTokensAnd403ForGoodTokensOnTheWrongRequest() throws {
        let bearer = "Bearer \(try F.issue().token)"
        #expect(decide(authorization: bearer, now: F.now.adding(seconds: 400)) == .unauthorized(.expired))
        #expect(decide(authorization: "Bearer \(try F.forge(secret: F.otherSecret))") == .unauthorized(.signature))
        #expect(decide(authorization: bearer, uri: "/content/monthly/2012-03/issue.pdf") == .forbidden(.pathNotGranted))
        #expect(decide(authorization: bearer, uri: "/content/monthly/2012-02/%2e%2e/x") == .forbidden(.pathRefused))
        #expect(decide(authorization: bearer, method: "POST") == .forbidden(.method))
        #expect(decide(authorization: bearer, method: nil).httpStatus == 204)
        #expect(decide(authorization: bearer, method: "HEAD").httpStatus == 204)
        #expect(decide(authorization: bearer, uri: nil) == .forbidden(.pathMissing))
        #expect(decide(authorization: bearer, uri: nil).httpStatus == 403)
    }

    @Test func refusesOverlongRequestTargetsUnread() throws {
        let bearer = "Bearer \(try F.issue().token)"
        let uri = F.path + "?pad=" + String(repeating: "x", count: 8192)
        #expect(decide(authorization: bearer, uri: uri) == .unauthorized(.requestTooLong))
    }
}

private extension String {
    /// `.` percent-encoded: a client that over-escapes the query still works (decoded once).
    func replacingDots() -> String { split(separator: ".", omittingEmptySubsequences: false).joined(separator: "%2E") }
}

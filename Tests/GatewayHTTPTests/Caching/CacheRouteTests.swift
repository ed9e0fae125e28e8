import Foundation
@testable import GatewayConfiguration
import HTTPServer
import Testing
import Wire
import GatewayTesting

/// The caches seen through the API: revoking one key keeps every other resolution, the memory-only
/// fast path answers what the route answers, and `/metrics` shows each cache.
@Suite struct CacheRouteTests {
    static func request(_ path: String, accountId: String, bearer: String) -> HTTPRequest {
        var headers = HTTPHeaders()
        headers.append(name: "Authorization", value: "Bearer \(bearer)")
        var request = HTTPRequest(method: "GET", target: path, headers: headers)
        request.pathParameters = ["accountId": accountId]
        return request
    }

    @Test func revokingOneKeyKeepsTheOthersResolved() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let kept = try h.createKey(#"{"role":"service"}"#)
        let revoked = try h.createKey(#"{"role":"service"}"#)
        for secret in [kept.secret, revoked.secret] {
            #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: secret).status == 200)
        }
        #expect(try h.client.delete("/v1/keys/\(revoked.id)", as: H.adminKey).status == 200)
        let misses = h.runtime.core.authenticator.stats.counts.misses
        #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: kept.secret).status == 200)
        #expect(h.runtime.core.authenticator.stats.counts.misses == misses, "still resolved from memory")
        #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: revoked.secret).status == 401)
    }

    @Test func theFastPathAnswersFromMemoryOnlyWhatTheRouteAnswers() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let path = "/v1/accounts/\(reader.id)/issues?publication=monthly"
        var request = Self.request(path, accountId: reader.id, bearer: reader.token)
        #expect(h.runtime.api.accounts.issueListPlan(&request) == nil, "nothing known yet: the store is needed")
        let answered = try h.client.get(path, as: reader.token)
        let fast = try #require(h.runtime.api.accounts.issueListPlan(&request)?.answer)
        #expect(fast.status == 200)
        #expect(fast.body == Array(answered.body))
        let other = try h.createAccount()
        var foreign = Self.request(path, accountId: reader.id, bearer: other.token)
        #expect(h.runtime.api.accounts.issueListPlan(&foreign) == nil)
        try h.subscribe(reader.id)
        #expect(h.runtime.api.accounts.issueListPlan(&request) == nil, "new facts: recomputed by the route")
    }

    /// The bearer secret is hashed once per request, also when a fast path declines and the
    /// route answers: the fast path hands the digest on with the request.
    @Test func theSecretIsHashedOncePerRequestWhenAFastPathDeclines() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount(), hashed = h.runtime.core.counters.secretsHashed
        let path = "/v1/accounts/\(reader.id)/issues?publication=monthly"
        func hashes(_ request: () throws -> APIResponse) throws -> Int {
            let before = hashed.value
            #expect(try request().status == 200)
            return hashed.value - before
        }
        #expect(try hashes { try h.client.get(path, as: reader.token) } == 1, "declined: the principal is not known yet")
        #expect(try hashes { try h.client.get(path, as: reader.token) } == 1, "answered by the fast path")
        try h.subscribe(reader.id)
        #expect(try hashes { try h.client.get(path, as: reader.token) } == 1, "declined: new facts")
        let other = try h.createAccount()
        try h.subscribe(other.id)
        #expect(try hashes { try h.token(for: other, issue: "2026-01") } == 1, "the token route's fast path declined")
    }

    @Test func tokensAreIssuedFromMemoryOnceThePrincipalAndFactsAreKnown() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        func request(_ issue: String, of publication: String = "monthly", bearer: String = reader.token) -> HTTPRequest {
            var request = Self.request("/v1/accounts/\(reader.id)/publications/\(publication)/issues/\(issue)/token",
                                       accountId: reader.id, bearer: bearer)
            request.method = "POST"
            request.pathParameters = ["accountId": reader.id, "publicationId": publication, "issueId": issue]
            return request
        }
        let tokens = h.runtime.api.tokens
        func fromMemory(_ request: HTTPRequest) -> HTTPResponse? {
            var request = request
            return tokens.cachedTokenResponse(&request)
        }
        #expect(fromMemory(request("2026-01")) == nil, "facts not in memory yet: the store is needed")
        #expect(try h.token(for: reader, issue: "2026-01").status == 200)
        let fast = try #require(fromMemory(request("2026-01")))
        #expect(fast.status == 200)
        #expect(String(decoding: fast.body, as: UTF8.self).contains(#""token":"#))
        // What the memory answers for an issue the reader may not have is the route's answer too.
        let refused = try #require(fromMemory(request("w1", of: "weekly")))
        #expect(refused.status == 403)
        let routeAnswer = try h.client.post("/v1/accounts/\(reader.id)/publications/weekly/issues/w1/token", as: reader.token)
        #expect(Array(routeAnswer.body) == refused.body, "not_entitled with its reason, as the route says it")
        let unseen = try #require(fromMemory(request("2026-04")))
        #expect(unseen.status == 404, "a scheduled issue is not visible (E16)")
        #expect(fromMemory(request("2026-01", bearer: "not-a-known-secret-0123456789")) == nil)
    }

    @Test func theIssueListAndTokenRoutesCarryTheirFastPaths() throws {
        let routes = try H().runtime.api.makeRouter().routes
        let fast = Set(routes.filter { $0.fastPath != nil }.map { "\($0.method) \($0.pattern.text)" })
        #expect(fast == ["GET /v1/accounts/{accountId}/issues",
                         "POST /v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token"])
    }

    @Test func entitlementsKeepTheIssueListAnswerForTheNextList() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        let path = "/v1/accounts/\(reader.id)/issues?publication=monthly"
        var request = Self.request(path, accountId: reader.id, bearer: reader.token)
        #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token).status == 200)
        let fast = try #require(h.runtime.api.accounts.issueListPlan(&request)?.answer, "evaluated with the entitlements: kept")
        let misses = h.runtime.core.accounts.answerStats.counts.misses
        let answered = try h.client.get(path, as: reader.token)
        #expect(h.runtime.core.accounts.answerStats.counts.misses == misses, "the route found it in memory too")
        #expect(fast.body == Array(answered.body))
    }

    @Test func onePublicationsListHoldsItsItemsOfTheWholeList() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        var counts: [String: [Int]] = [:]
        for publication in ["monthly", "weekly"] {
            for entitled in ["", "&entitled=true"] {
                let allText = try h.client.get("/v1/accounts/\(reader.id)/issues?x=1\(entitled)", as: reader.token).text
                let oneText = try h.client.get("/v1/accounts/\(reader.id)/issues?publication=\(publication)\(entitled)",
                                               as: reader.token).text
                let all = try JSONParser().parse(allText), one = try JSONParser().parse(oneText)
                let items = try #require(all.objectValue?["issues"]?.arrayValue)
                    .filter { $0.objectValue?["publicationId"]?.stringValue == publication }
                #expect(one.objectValue?["issues"]?.arrayValue == items, "\(publication)\(entitled)")
                counts[publication, default: []].append(items.count)
            }
        }
        #expect(counts["monthly"]?.first ?? 0 > 1)
        #expect(counts["weekly"] == [1, 0], "the reader may open none of the weekly's issues")
    }

    @Test func metricsShowEveryCacheByName() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        for _ in 0..<2 { #expect(try h.client.get("/v1/accounts/\(reader.id)/issues", as: reader.token).status == 200) }
        let text = try h.client.get("/metrics").text
        for cache in ["account_answers", "account_facts", "principals", "verified_tokens"] {
            #expect(text.contains("issue_gateway_cache_bytes{cache=\"\(cache)\"}"))
            #expect(text.contains("issue_gateway_cache_budget_bytes{cache=\"\(cache)\"}"))
        }
        #expect(text.contains("issue_gateway_cache_hits_total{cache=\"account_answers\"} 1"))
        #expect(text.contains("issue_gateway_cache_misses_total{cache=\"account_answers\"} 1"))
    }
}

extension FastPathPlan {
    /// The answer the fast path gave on the event loop; nil when it left work to the pool.
    var answer: HTTPResponse? {
        if case .answer(let response) = self { return response }
        return nil
    }
}

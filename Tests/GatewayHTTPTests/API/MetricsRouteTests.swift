import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// `GET /metrics` (http-api.md, Operations): requests by route and status, the latency
/// histogram, tokens issued and verified, in Prometheus text format.
@Suite struct MetricsRouteTests {
    @Test func metricsCountRequestsByRouteAndStatusWithLatencyAndTokens() throws {
        let h = try H(transport: .socket)
        try h.seedCatalog()
        let reader = try h.createAccount()
        #expect(try h.client.get("/healthz").status == 200)
        #expect(try h.client.get("/healthz").status == 200)
        #expect(try h.client.get("/v1/publications/nowhere/issues").status == 404)
        #expect(try h.client.get("/no/such/route").status == 404)
        let token = try #require(try h.token(for: reader, issue: "2026-02").json["token"] as? String)
        #expect(try h.client.get("/v1/edge/verify", as: token, headers: [("X-Original-URI", "/content/monthly/2026-02/issue.pdf")]).status == 204)
        #expect(try h.client.get("/v1/edge/verify", as: token, headers: [("X-Original-URI", "/content/other")]).status == 403)
        h.clock.advance(seconds: 400)
        #expect(try h.client.get("/v1/edge/verify", as: token, headers: [("X-Original-URI", "/content/monthly/2026-02/issue.pdf")]).status == 401)

        let response = try h.client.get("/metrics")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("text/plain") == true)
        let lines = Set(response.text.split(separator: "\n").map(String.init))
        let expected = [
            #"http_requests_total{method="GET",route="/healthz",status="200"} 2"#,
            #"http_requests_total{method="GET",route="/v1/publications/{publicationId}/issues",status="404"} 1"#,
            #"http_requests_total{method="GET",route="unmatched",status="404"} 1"#,
            #"http_requests_total{method="PUT",route="/v1/publications/{publicationId}",status="201"} 2"#,
            #"http_requests_total{method="POST",route="/v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token",status="200"} 1"#,
            #"http_requests_total{method="GET",route="/v1/edge/verify",status="204"} 1"#,
            #"http_request_duration_seconds_count{method="GET",route="/healthz"} 2"#,
            #"http_request_duration_seconds_bucket{method="GET",route="/healthz",le="+Inf"} 2"#,
            "issue_gateway_tokens_issued_total 1",
            #"issue_gateway_tokens_verified_total{result="allow"} 1"#,
            #"issue_gateway_tokens_verified_total{result="pathNotGranted"} 1"#,
            #"issue_gateway_tokens_verified_total{result="expired"} 1"#,
            "# TYPE http_request_duration_seconds histogram",
            "# TYPE http_requests_total counter",
        ]
        for line in expected { #expect(lines.contains(line), "missing: \(line)") }
    }

    @Test func appStoreCallsAreCountedEvenWhenTheAppStoreIsUnreachable() throws {
        let h = try H(transport: .socket)  // its App Store URLs point at a closed local port
        let reader = try h.createAccount()
        let response = try h.client.post("/v1/accounts/\(reader.id)/receipts", as: reader.token, json: #"{"receiptData":"AAAA"}"#)
        #expect(response.status == 503)
        #expect(response.errorCode == "app_store_unavailable")
        let calls = try h.client.get("/metrics").text.split(separator: "\n")
            .filter { $0.hasPrefix(#"issue_gateway_appstore_calls_total{endpoint="production",outcome="unavailable"}"#) }
        let count = calls.first.flatMap { Int($0.split(separator: " ").last ?? "") }
        #expect((count ?? 0) >= 1, "\(calls)")
        #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token).objects("subscriptions").isEmpty,
                "an error stores nothing")
    }
}

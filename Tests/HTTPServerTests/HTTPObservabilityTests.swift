import Foundation
@testable import HTTPServer
import Metrics
import Testing

/// `/metrics` content and the JSON-lines access log, through a running server.
@Suite struct HTTPObservabilityTests {
    @Test func metricsCountRequestsByRouteAndStatusWithLatencyAndConnections() throws {
        let metrics = Metrics()
        let router = TestServer.defaultRouter { router in
            router.add("GET", "/metrics") { _ in .text(200, metrics.render(), contentType: "text/plain; version=0.0.4") }
        }
        let server = try TestServer(router: router)
        defer { server.stop() }
        // The server registered its collector on the TestServer's registry; render that one.
        let tokens = server.metrics.counter("issue_gateway_tokens_issued_total", help: "Download tokens issued.")
        tokens.increment(by: 3)
        let client = try server.client()
        for path in ["/hello", "/hello", "/nope", "/v1/publications/a/issues/b"] {
            client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readResponse()
        }
        let text = server.metrics.render()
        #expect(text.contains(#"http_requests_total{method="GET",route="/hello",status="200"} 2"#))
        #expect(text.contains(#"http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
        #expect(text.contains(#"http_requests_total{method="GET",route="/v1/publications/{publicationId}/issues/{issueId}",status="200"} 1"#))
        #expect(text.contains(#"http_request_duration_seconds_count{method="GET",route="/hello"} 2"#))
        #expect(text.contains(#"http_request_duration_seconds_bucket{method="GET",route="/hello",le="+Inf"} 2"#))
        #expect(text.contains("# TYPE http_request_duration_seconds histogram"))
        #expect(text.contains("http_open_connections 1"))
        #expect(text.contains("# TYPE issue_gateway_tokens_issued_total counter\nissue_gateway_tokens_issued_total 3"))
    }

    /// An answer the server could not send as written (a header value with CR LF) leaves as a 500;
    /// the metrics count the 500 the client received, not the handler's status.
    @Test func metricsCountTheStatusSentNotTheOneAHandlerMade() throws {
        let router = TestServer.defaultRouter { router in
            router.add("GET", "/split") { _ in HTTPResponse(status: 200, headers: [("X-Bad", "a\r\nSet-Cookie: x=1")], body: []) }
        }
        let server = try TestServer(router: router)
        defer { server.stop() }
        let client = try server.client()
        client.send("GET /split HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 500)
        let text = server.metrics.render()
        #expect(text.contains(#"http_requests_total{method="GET",route="/split",status="500"} 1"#))
        #expect(!text.contains(#"route="/split",status="200""#))
    }

    /// Labels come from a fixed set whatever clients send: invented methods share `other`,
    /// invented paths `unmatched`, so /metrics does not grow with them.
    @Test func inventedMethodsAndPathsDoNotGrowTheMetrics() throws {
        let server = try TestServer(router: TestServer.defaultRouter { _ in })
        defer { server.stop() }
        let client = try server.client()
        func send(_ count: Int, from first: Int) throws {
            for i in first..<(first + count) {
                client.send("X\(i)METHOD /invented/\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try client.readResponse()
            }
        }
        try send(20, from: 0)
        let after20 = server.metrics.render()
        try send(2_000, from: 20)
        let afterAll = server.metrics.render()
        #expect(!afterAll.contains("METHOD"))
        #expect(afterAll.contains(#"method="other",route="unmatched""#))
        #expect(afterAll.utf8.count - after20.utf8.count < 64, "only counts change, no new series")
        #expect(RequestStats.methodLabel("GET") == "GET" && RequestStats.methodLabel("get") == "other")
    }

    @Test func histogramBucketsAreCumulative() {
        let metrics = Metrics()
        let histogram = metrics.histogram("x_seconds", help: "x", bounds: [0.1, 1])
        histogram.observe(0.05)
        histogram.observe(0.5)
        histogram.observe(5)
        let text = metrics.render()
        #expect(text.contains("x_seconds_bucket{le=\"0.1\"} 1\nx_seconds_bucket{le=\"1.0\"} 2\nx_seconds_bucket{le=\"+Inf\"} 3"))
        #expect(text.contains("x_seconds_count 3"))
        #expect(metrics.gauge("g", help: "g", labels: [("a", "q\"uote")]) === metrics.gauge("g", help: "g", labels: [("a", "q\"uote")]))
        #expect(metrics.render().contains(#"g{a="q\"uote"} 0"#))
    }

    @Test func accessLogWritesOneJSONObjectPerRequest() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString).log").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let log = AccessLog(destination: handle)
        let server = try TestServer(accessLog: log)
        let client = try server.client()
        client.send("GET /v1/publications/m/issues/1?x=y HTTP/1.1\r\nHost: x\r\nUser-Agent: t\"est\r\n\r\n")
        _ = try client.readResponse()
        server.stop()
        log.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let entry = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(entry["method"] as? String == "GET")
        #expect(entry["path"] as? String == "/v1/publications/m/issues/1")
        #expect(entry["route"] as? String == "/v1/publications/{publicationId}/issues/{issueId}")
        #expect(entry["status"] as? Int == 200)
        #expect(entry["userAgent"] as? String == "t\"est")
        #expect((entry["remote"] as? String)?.hasPrefix("127.0.0.1:") == true)
        #expect((entry["time"] as? String)?.hasSuffix("Z") == true)
        #expect(entry["durationMs"] is Double || entry["durationMs"] is Int)
    }
}

import Foundation
import Testing
@testable import IssueGateway

/// The server `benchmarks/http/run.sh` measures: only enabled when that script sets
/// `ISSUE_GATEWAY_HTTP_BENCH_PORT`, skipped in the normal test run. It answers `GET /bench` with
/// 204 (what the nginx peer answers) until the stop file appears or the time bound passes.
@Suite struct HTTPBenchmarkServerTests {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["ISSUE_GATEWAY_HTTP_BENCH_PORT"] != nil))
    func serveForBenchmark() throws {
        let port = try #require(Int(Self.environment["ISSUE_GATEWAY_HTTP_BENCH_PORT"] ?? ""))
        let stopFile = try #require(Self.environment["ISSUE_GATEWAY_HTTP_BENCH_STOP_FILE"])
        let maxSeconds = min(600, Double(Self.environment["ISSUE_GATEWAY_HTTP_BENCH_SECONDS"] ?? "") ?? 120)
        let metrics = Metrics()
        let router = Router()
        router.add("GET", "/bench") { _ in .noContent }
        router.add("GET", "/metrics") { _ in .text(200, metrics.render()) }
        var configuration = HTTPServerConfiguration()
        configuration.port = port
        if let threads = Int(Self.environment["ISSUE_GATEWAY_THREADS"] ?? "") { configuration.threads = threads }
        let server = HTTPServer(configuration: configuration, router: router, metrics: metrics, accessLog: nil)
        try server.start()
        let deadline = Date().addingTimeInterval(maxSeconds)
        while !FileManager.default.fileExists(atPath: stopFile) && Date() < deadline {
            usleep(100_000)  // the benchmark script's stop signal is a file; nothing to await
        }
        server.shutdown()
        server.waitUntilStopped()
        #expect(metrics.render().contains(#"http_requests_total{method="GET",route="/bench",status="204"}"#))
    }
}

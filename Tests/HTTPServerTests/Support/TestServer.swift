import Foundation
@testable import HTTPServer
import Metrics
import Synchronization
import TestSupport

/// An in-process server on an ephemeral port with small timeouts, stopped by `stop()`.
final class TestServer: Sendable {
    let server: HTTPServer
    let port: Int
    let metrics = Metrics()
    private let stopped = Atomic<Bool>(false)

    init(router: Router = TestServer.defaultRouter(), accessLog: AccessLog? = nil,
         configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threads = 2
        configuration.workerPools = [.standard: WorkerPoolSize(threads: 2, queueLimit: 1024)]
        configuration.timerResolution = .milliseconds(20)
        configuration.lingerTimeout = .milliseconds(500)
        configure(&configuration)
        server = HTTPServer(configuration: configuration, router: router, metrics: metrics, accessLog: accessLog)
        port = try server.start()
    }

    func client(from source: String? = nil) throws -> TestClient { try TestClient(port: port, from: source) }

    /// A simple request for `/hello`.
    static let hello = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Runs `body` against a fresh server and one connection to it, then stops the server.
    static func withClient(router: Router = TestServer.defaultRouter(),
                           configure: (inout HTTPServerConfiguration) -> Void = { _ in },
                           _ body: (TestServer, TestClient) throws -> Void) throws {
        let server = try TestServer(router: router, configure: configure)
        defer { server.stop() }
        try body(server, try server.client())
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        server.shutdown()
        server.waitUntilStopped()
    }

    deinit { stop() }

    /// The server's own answers as JSON naming the error's kind: the server tests check that the
    /// router's renderer, not the server, decides their shape.
    static let errors: HTTPErrorRenderer = { error in
        .json(error.status) { w in
            w.object { w in
                w.key("error")
                w.object { w in
                    w.field("code", "\(error.kind)")
                    w.field("message", error.message)
                }
            }
        }
    }

    static func defaultRouter(configure: (RouterBuilder) -> Void = { _ in }) -> Router {
        let router = RouterBuilder()
        router.add("GET", "/hello") { _ in .text(200, "hello") }
        router.add("GET", "/v1/publications/{publicationId}/issues/{issueId}") { request in
            .json(200) { w in
                w.object { w in
                    w.field("publicationId", request.pathParameters["publicationId"] ?? "")
                    w.field("issueId", request.pathParameters["issueId"] ?? "")
                    w.field("q", request.queryParameter("q"))
                }
            }
        }
        router.add("POST", "/echo") { request in HTTPResponse(status: 200, body: request.body) }
        router.add("POST", "/upload", maxBodyBytes: 4 << 20) { request in .text(200, String(request.body.count)) }
        router.add("GET", "/big") { _ in HTTPResponse(status: 200, body: TestServer.bigBody) }
        configure(router)
        return router.freeze(errors: errors)
    }

    /// 16 MiB with a position-dependent pattern: more than loopback socket buffers hold, so the
    /// server must resume partial writes.
    static let bigBody: [UInt8] = {
        // A pattern whose length is not a power of two, so a misplaced chunk shows up.
        let pattern = (0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        var body: [UInt8] = []
        body.reserveCapacity(16 << 20)
        while body.count < 16 << 20 { body.append(contentsOf: pattern.prefix((16 << 20) - body.count)) }
        return body
    }()
}

/// A worker route that blocks until released: `started` opens when a request reaches it.
final class BlockingRoute: Sendable {
    let started = Gate()
    let release = Gate()

    func handler(_ request: HTTPRequest) -> HTTPResponse {
        started.open()
        _ = release.wait()
        return HTTPResponse(status: 200, body: request.body)
    }
}


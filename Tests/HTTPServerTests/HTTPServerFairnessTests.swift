import Lifecycle
import Testing
import TestSupport
@testable import HTTPServer

/// Fairness: a client's share of the worker pools is bounded per source
/// address, so one client with many pipelining connections cannot make another's requests fail.
@Suite struct HTTPServerFairnessTests {
    /// A handler that blocks until the test lets every waiting request through at once.
    private final class Barrier: Sendable {
        private let opened = Condition(false)
        func wait() { opened.withLock(when: { $0 }, timeout: .seconds(10)) { _ in } }
        func open() {
            opened.withLock { $0 = true }
            opened.broadcast()
        }
    }

    private static let pool = WorkerPoolSize(threads: 1, queueLimit: 16)
    private static let slow = "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n"

    private static func answered(_ status: Int, _ server: TestServer) -> Int {
        let prefix = "http_requests_total{method=\"GET\",route=\"/slow\",status=\"\(status)\"} "
        let line = server.metrics.render().split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    @Test func aHogWithManyPipeliningConnectionsDoesNotStarveAnotherClient() throws {
        let barrier = Barrier()
        let router = TestServer.defaultRouter { $0.add("GET", "/slow", execution: .worker) { _ in
            barrier.wait()
            return .noContent
        } }
        let server = try TestServer(router: router) { $0.workerPools = [.standard: Self.pool] }
        defer { server.stop() }
        var opened = false
        defer { if !opened { barrier.open() } }

        let depth = 4
        let hog = try (0..<64).map { _ in try server.client(from: "127.0.0.1") }
        for connection in hog { connection.send(String(repeating: Self.slow, count: depth)) }
        // Every request sent so far is answered 503, queued, or the one running.
        func dispatched() -> Int { Self.answered(503, server) + server.server.queuedJobs + 1 }
        #expect(eventually { dispatched() == hog.count * depth })

        let other = try (0..<4).map { _ in try server.client(from: "127.0.0.2") }
        for connection in other { connection.send(Self.slow) }
        #expect(eventually { dispatched() == hog.count * depth + other.count })
        barrier.open()
        opened = true
        for connection in other { #expect(try connection.readResponse().status == 204) }
        // The hog got its share of the pool, no more.
        let share = ClientShares.share(of: Self.pool, fraction: HTTPServerConfiguration().maxPoolSharePerClient)
        #expect(Self.answered(503, server) == hog.count * depth - share)
    }
}

/// Which client an address is: an IPv6 /64 is one client, not 2^64.
@Suite struct ClientKeyTests {
    @Test(arguments: [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:eeee:dddd:cccc", "2001:db8:1:2::/64"),
        ("::1", "0:0:0:0::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
    ])
    func addressesMapToTheirClient(address: String, client: String) {
        #expect(ClientKey.of(address) == client)
    }
}

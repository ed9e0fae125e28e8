import Foundation
@testable import HTTPServer
import Metrics
import TestSupport
import Testing

/// Named worker pools (bulkheads) and fast paths, on a running server.
@Suite struct WorkerPoolAndFastPathTests {
    static let slow: WorkerPoolID = "slow"

    /// A pool whose one thread is held does not hold up routes on another pool.
    @Test func aBlockedPoolLeavesOtherPoolsServing() throws {
        try withSlowPoolHeld(routes: { router in
            router.add("GET", "/store", execution: .worker) { _ in .text(200, "store") }
        }) { client throws in
            client.send("GET /store HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().text == "store")
        }
    }

    /// A fast path answers on the event loop, even while the route's pool is full; nil from it
    /// hands the request to the pool.
    @Test func fastPathAnswersWithoutThePoolAndNilFallsThrough() throws {
        try withSlowPoolHeld(routes: { router in
            router.add("GET", "/cached/{key}", execution: .pool(Self.slow),
                       fastPlan: { request in request.pathParameters["key"] == "hit" ? .answer(.text(200, "from memory")) : nil },
                       handler: { _ in .text(200, "from the pool") })
        }) { client throws in
            client.send("GET /cached/hit HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().text == "from memory")
        }
        try TestServer.withClient(router: TestServer.defaultRouter { router in
            router.add("GET", "/cached/{key}", execution: .worker, fastPlan: { _ in nil }) { _ in .text(200, "from the pool") }
        }) { _, client throws in
            client.send("GET /cached/miss HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().text == "from the pool")
        }
    }

    /// A fast path that leaves the end of its answer to the pool: the pool runs what the fast
    /// path handed over, not the route's handler.
    @Test func aPlanFinishedOnThePoolRunsInsteadOfTheHandler() throws {
        try TestServer.withClient(router: TestServer.defaultRouter { router in
            router.add("GET", "/planned", execution: .worker, fastPlan: { request in
                let begun = "begun on the loop for " + request.path
                return .finishOnPool { .text(200, begun + ", finished on " + Self.currentThreadName()) }
            }, handler: { _ in .text(200, "the handler") })
        }) { _, client throws in
            client.send("GET /planned HTTP/1.1\r\nHost: x\r\n\r\n")
            let text = try client.readResponse().text
            #expect(text.hasPrefix("begun on the loop for /planned, finished on http-"))
            // The pool's thread, not an event loop's: keeping that work off the loop is the point.
            #expect(!text.contains("http-loop"))
        }
    }

    /// A fast path that declines hands the handler the request as it left it: what it computed
    /// (the credential's digest) is not computed again.
    @Test func aDecliningFastPathHandsItsNotesToTheHandler() throws {
        try TestServer.withClient(router: TestServer.defaultRouter { router in
            router.add("GET", "/noted", execution: .worker, fastPlan: { request in
                request.credentialDigest = SIMD4(1, 2, 3, 4)
                return nil
            }, handler: { request in .text(200, "\(request.credentialDigest.map { $0[3] } ?? 0)") })
        }) { _, client throws in
            client.send("GET /noted HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().text == "4")
        }
    }

    @Test func aRouteOnAnUnsizedPoolStopsTheStart() {
        let router = RouterBuilder()
        router.add("GET", "/x", execution: .pool("nowhere")) { _ in .noContent }
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: router.freeze(), metrics: Metrics(), accessLog: nil)
        defer { server.waitUntilStopped() }
        #expect(throws: HTTPServerStartError.unknownWorkerPool("nowhere")) { try server.start() }
    }

    /// A server whose `slow` pool (one thread) and standard pool (one thread) serve `routes`, with
    /// the slow pool's thread held by a request; `body` gets a client that gives up after 2 s, well
    /// before the held handler does (BlockingRoute waits 5 s).
    private func withSlowPoolHeld(routes: (RouterBuilder) -> Void, _ body: (TestClient) throws -> Void) throws {
        let block = BlockingRoute()
        let router = TestServer.defaultRouter { router in
            router.add("GET", "/held", execution: .pool(Self.slow), handler: block.handler)
            routes(router)
        }
        let server = try TestServer(router: router) { configuration in
            configuration.workerPools = [.standard: WorkerPoolSize(threads: 1, queueLimit: 4),
                                         Self.slow: WorkerPoolSize(threads: 1, queueLimit: 4)]
        }
        defer {
            block.release.open()
            server.stop()
        }
        let holder = try server.client()
        holder.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(block.started.wait())
        try body(try TestClient(port: server.port, timeoutMilliseconds: 2000))
        block.release.open()
        #expect(try holder.readResponse().status == 200)
    }
}

extension WorkerPoolAndFastPathTests {
    /// The calling thread's name as the kernel has it (`JoinableThread` names every thread).
    static func currentThreadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

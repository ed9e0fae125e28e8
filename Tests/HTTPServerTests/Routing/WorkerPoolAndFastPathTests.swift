import Foundation
import TestSupport
import Testing
@testable import HTTPServer

/// Named worker pools (bulkheads) and fast paths, on a running server.
@Suite struct WorkerPoolAndFastPathTests {
    static let slow: WorkerPoolID = "slow"

    /// A pool whose one thread is held does not hold up routes on another pool.
    @Test func aBlockedPoolLeavesOtherPoolsServing() throws {
        let block = BlockingRoute()
        let router = TestServer.defaultRouter { router in
            router.add("GET", "/slow", execution: .pool(Self.slow), handler: block.handler)
            router.add("GET", "/store", execution: .worker) { _ in .text(200, "store") }
        }
        let server = try TestServer(router: router) { configuration in
            configuration.workerPools = [.standard: WorkerPoolSize(threads: 1, queueLimit: 4),
                                         Self.slow: WorkerPoolSize(threads: 1, queueLimit: 4)]
        }
        defer {
            block.release.open()
            server.stop()
        }
        let waiting = try server.client()
        waiting.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(block.started.wait())
        // Well before the held handler gives up (BlockingRoute waits 5 s).
        let other = try TestClient(port: server.port, timeoutMilliseconds: 2000)
        other.send("GET /store HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try other.readResponse().text == "store")
        block.release.open()
        #expect(try waiting.readResponse().status == 200)
    }

    /// A fast path answers on the event loop, even while the route's pool is full; nil from it
    /// hands the request to the pool.
    @Test func fastPathAnswersWithoutThePoolAndNilFallsThrough() throws {
        let block = BlockingRoute()
        let router = TestServer.defaultRouter { router in
            router.add("GET", "/busy", execution: .pool(Self.slow), handler: block.handler)
            router.add("GET", "/cached/{key}", execution: .pool(Self.slow),
                       fastPath: { request in request.pathParameters["key"] == "hit" ? .text(200, "from memory") : nil },
                       handler: { _ in .text(200, "from the pool") })
        }
        let server = try TestServer(router: router) { configuration in
            configuration.workerPools[Self.slow] = WorkerPoolSize(threads: 1, queueLimit: 4)
        }
        defer {
            block.release.open()
            server.stop()
        }
        let holder = try server.client()
        holder.send("GET /busy HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(block.started.wait())
        let client = try TestClient(port: server.port, timeoutMilliseconds: 2000)
        client.send("GET /cached/hit HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().text == "from memory")
        block.release.open()
        client.send("GET /cached/miss HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().text == "from the pool")
        #expect(try holder.readResponse().status == 200)
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
}

import Foundation
import Lifecycle
import TestSupport
import Testing
@testable import HTTPServer

/// Timeouts, the connection limit, the worker queue limit and graceful shutdown.
@Suite struct HTTPServerLimitsTests {
    @Test func slowClientGetsA408AndIsClosed() throws {
        try TestServer.withClient(configure: { $0.headerReadTimeout = .milliseconds(200) }) { _, client throws in
            client.send("GET /hello HTTP/1.1\r\nHo")  // ...and then nothing more, slowloris-style
            let response = try client.readResponse()
            #expect(response.status == 408)
            #expect(response.header("Connection") == "close")
            #expect(client.waitForClose())
        }
    }

    @Test func trickleOfHeaderBytesDoesNotExtendTheDeadline() throws {
        try TestServer.withClient(configure: { $0.headerReadTimeout = .milliseconds(300) }) { _, client throws in
            client.send("GET /hello HTTP/1.1\r\n")
            var status: Int?
            // Keep sending a header byte at a time; the deadline counts from the first byte.
            let start = Date()
            for _ in 0..<400 where status == nil {
                client.send("X")
                if let response = try? readIfAvailable(client) { status = response.status }
                if Date().timeIntervalSince(start) > 5 { break }
            }
            #expect(status == 408)
        }
    }

    @Test func idleConnectionIsClosed() throws {
        try TestServer.withClient(configure: { $0.idleTimeout = .milliseconds(200) }) { server, client throws in
            client.send(TestServer.hello)
            #expect(try client.readResponse().status == 200)
            #expect(client.waitForClose())
            #expect(eventually { server.server.openConnections == 0 })
        }
    }

    @Test func connectionsOverTheLimitAreRefusedWith503() throws {
        let server = try TestServer { $0.maxConnections = 2 }
        defer { server.stop() }
        let first = try server.client()
        let second = try server.client()
        for client in [first, second] {
            client.send(TestServer.hello)
            #expect(try client.readResponse().status == 200)
        }
        let third = try server.client()
        third.send(TestServer.hello)
        let refused = try third.readResponse()
        #expect(refused.status == 503)
        #expect(refused.header("Connection") == "close")
        #expect(third.waitForClose())

        first.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        _ = try first.readResponse()
        #expect(first.waitForClose())
        #expect(eventually { server.server.openConnections == 1 })
        let fourth = try server.client()
        fourth.send(TestServer.hello)
        #expect(try fourth.readResponse().status == 200)
    }

    @Test func fullWorkerQueueAnswers503() throws {
        let block = BlockingRoute()
        let router = TestServer.defaultRouter { $0.add("GET", "/block", execution: .worker, handler: block.handler) }
        let server = try TestServer(router: router) { configuration in
            configuration.workerPools = [.standard: WorkerPoolSize(threads: 1, queueLimit: 1)]
            // The queue itself is under test: this one client may take the whole pool.
            configuration.maxPoolSharePerClient = 1
        }
        defer { server.stop() }
        let client = try server.client()
        client.send("GET /block HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(block.started.wait())
        // One runs, one waits in the queue, the third finds the queue full.
        client.send("GET /block HTTP/1.1\r\nHost: x\r\n\r\nGET /block HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(eventually { server.metrics.render().contains(#"status="503""#) })
        block.release.open()
        block.release.open()
        #expect(try client.readResponse().status == 200)
        #expect(try client.readResponse().status == 200)
        #expect(try client.readResponse().status == 503)
    }

    @Test func gracefulShutdownFinishesRequestsInFlight() throws {
        let work = BlockingRoute()
        let router = TestServer.defaultRouter { $0.add("POST", "/work", execution: .worker, handler: work.handler) }
        let server = try TestServer(router: router)
        let idle = try server.client()
        idle.send(TestServer.hello)
        #expect(try idle.readResponse().status == 200)
        let busy = try server.client()
        busy.send("POST /work HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nstill")
        #expect(work.started.wait())

        let stopped = Gate()
        let stopper = JoinableThread(name: "stopper") {
            server.stop()
            stopped.open()
        }
        #expect(idle.waitForClose())  // idle connections go at once
        #expect(eventually { (try? TestClient(port: server.port)) == nil })  // no longer accepting
        #expect(!stopped.wait(seconds: 0.05))  // but the server waits for the request in flight
        work.release.open()
        let response = try busy.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "still")
        #expect(response.header("Connection") == "close")
        #expect(stopped.wait())
        stopper.join()
    }

    /// A response if one is already waiting (short receive timeout), nil otherwise.
    private func readIfAvailable(_ client: TestClient) throws -> TestClient.Response? {
        _ = csystemShortTimeout(client)
        return try? client.readResponse()
    }

    private func csystemShortTimeout(_ client: TestClient) -> Int32 {
        IssueGatewayTestsSocket.setReceiveTimeout(client.fd, milliseconds: 10)
    }
}

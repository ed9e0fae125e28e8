import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// Body memory: nothing is reserved from an announced length, and what all
/// connections hold in bodies and unsent answers stays within `maxBufferedBytes`; past it the
/// server answers 503, never more memory, never a crash.
@Suite struct HTTPServerBufferBudgetTests {
    @Test func anAnnouncedLengthReservesNothing() {
        var parser = HTTPRequestParser(limits: HTTPParserLimits())
        let input = Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 6291456\r\n\r\n0123456789".utf8)
        _ = input.withUnsafeBufferPointer { parser.parse($0, bodyLimit: { _ in 8 << 20 }) }
        #expect(parser.bufferedBodyBytes == 10)
        #expect(parser.bodyCapacity < 64 * 1024, "\(parser.bodyCapacity) bytes reserved for 10 received")
    }

    @Test func manyAnnouncedBodiesHoldOnlyWhatArrived() throws {
        let router = TestServer.defaultRouter { $0.add("POST", "/large-upload", maxBodyBytes: 8 << 20) { _ in .noContent } }
        let server = try TestServer(router: router)
        defer { server.stop() }
        let clients = try (0..<50).map { _ in try server.client() }
        for client in clients { client.send("POST /large-upload HTTP/1.1\r\nHost: x\r\nContent-Length: 6291456\r\n\r\nab") }
        #expect(eventually { server.server.bufferedBytes == 100 })
        #expect(server.metrics.render().contains("http_buffered_bytes 100"))
    }

    @Test func unreadAnswersPastTheBudgetTurnNewRequestsInto503UntilTheyAreTaken() throws {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let router = TestServer.defaultRouter { $0.add("GET", "/megabyte") { _ in HTTPResponse(status: 200, body: big) } }
        let budget = 2 << 20
        let server = try TestServer(router: router) { $0.maxBufferedBytes = budget }
        defer { server.stop() }
        do {
            let hoarder = try server.client()
            hoarder.send(String(repeating: "GET /megabyte HTTP/1.1\r\nHost: x\r\n\r\n", count: 24))  // and never reads
            #expect(eventually { server.server.bufferedBytes > budget })
            let other = try server.client()
            other.send(TestServer.hello)
            let refused = try other.readResponse()
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1", "RFC 9110 §10.2.3: every 503 says when to come back")
            // Held, at most: the budget, plus the one connection's limit of answers it was already owed.
            #expect(server.server.bufferedBytes <= budget + HTTPServerConfiguration().maxPendingOutputBytes + (1 << 20))
        }
        // The hoarder is gone: its bytes are released and requests run again.
        #expect(eventually { server.server.bufferedBytes == 0 })
        let later = try server.client()
        later.send(TestServer.hello)
        #expect(try later.readResponse().status == 200)
    }

    /// One client that requests large answers and never reads them is stopped at its share of the
    /// budget: its own new requests are 503, another client's still run (before the share, the
    /// hoarder alone pushed the whole server past the budget and everyone got 503).
    @Test func aHoarderIsStoppedAtItsShareAndOthersAreStillServed() throws {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let router = TestServer.defaultRouter { $0.add("GET", "/megabyte") { _ in HTTPResponse(status: 200, body: big) } }
        let budget = 16 << 20
        let server = try TestServer(router: router) { c in
            c.maxBufferedBytes = budget
            c.maxBufferSharePerClient = 0.25
        }
        defer { server.stop() }
        let hoarders = try (0..<6).map { _ in try server.client() }
        for hoarder in hoarders {  // 6 × 24 MiB asked, never read: far past the whole budget
            hoarder.send(String(repeating: "GET /megabyte HTTP/1.1\r\nHost: x\r\n\r\n", count: 24))
        }
        #expect(eventually { server.server.bufferedBytes > budget / 4 })
        let own = try server.client()
        own.send(TestServer.hello)
        #expect(try own.readResponse().status == 503, "the hoarder's own address is past its share")
        #expect(server.server.bufferedBytes < budget, "one client never holds the whole budget")
        let other = try server.client(from: "127.0.0.2")
        other.send(TestServer.hello)
        #expect(try other.readResponse().status == 200, "another client is served")
    }

    @Test func aBodyPastTheBudgetIsA503AndClosesItsConnection() throws {
        let router = TestServer.defaultRouter { $0.add("POST", "/large-upload", maxBodyBytes: 8 << 20) { _ in .noContent } }
        let server = try TestServer(router: router) { $0.maxBufferedBytes = 1 << 20 }
        defer { server.stop() }
        let client = try server.client()
        client.send("POST /large-upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4194304\r\n\r\n")
        client.send([UInt8](repeating: 0x62, count: 2 << 20))
        #expect(try client.readResponse().status == 503)
        #expect(client.waitForClose())
        #expect(eventually { server.server.bufferedBytes == 0 })
    }
}

import Foundation
import TestSupport
import Testing
@testable import HTTPServer

/// Keep-alive, pipelining, fragmentation and framing over real sockets.
@Suite struct HTTPServerExchangeTests {
    @Test func keepAliveConnectionServesSeveralRequests() throws {
        try TestServer.withClient() { _, client throws in
            for _ in 0..<3 {
                client.send(TestServer.hello)
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "hello")
                #expect(response.header("Content-Length") == "5")
                #expect(response.header("Connection") == nil)
                let date = try #require(response.header("Date"))
                #expect(date.hasSuffix(" GMT") && date.count == 29)
            }
        }
    }

    @Test func pathParametersAndQueryReachTheHandler() throws {
        try TestServer.withClient() { _, client throws in
            client.send("GET /v1/publications/the%20monthly/issues/2012-05?q=a%2Bb+c HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == #"{"publicationId":"the monthly","issueId":"2012-05","q":"a+b c"}"#)
        }
    }

    @Test func pipelinedResponsesComeInOrderEvenWhenAWorkerIsSlower() throws {
        let inlineRan = Gate()
        let router = TestServer.defaultRouter { router in
            router.add("GET", "/slow", execution: .worker) { _ in
                // Finish only after the later, inline request has been answered.
                _ = inlineRan.wait()
                return .text(200, "slow")
            }
            router.add("GET", "/fast") { _ in
                inlineRan.open()
                return .text(200, "fast")
            }
        }
        try TestServer.withClient(router: router) { _, client throws in
            client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nping")
            #expect(try client.readResponse().text == "slow")
            #expect(try client.readResponse().text == "fast")
            #expect(try client.readResponse().text == "ping")
        }
    }

    @Test func aMalformedRequestAfterGoodOnesIsAnsweredAfterThem() throws {
        let router = TestServer.defaultRouter { router in
            router.add("GET", "/slow", execution: .worker) { _ in .text(200, "slow") }
        }
        try TestServer.withClient(router: router) { _, client throws in
            // A good inline request, a good one on a worker, then one that cannot be parsed: the
            // first two are answered in order, then the 400, then the connection ends.
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /bad HTTP/1.1\r\nHost : x\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
            #expect(try client.readResponse().text == "slow")
            let refusal = try client.readResponse()
            #expect(refusal.status == 400)
            #expect(refusal.header("Connection") == "close")
        }
    }

    @Test func requestSplitByteByByteIsParsed() throws {
        try TestServer.withClient() { _, client throws in
            let request = Array("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n".utf8)
            for byte in request { client.send([byte]) }
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "hello world")
        }
    }

    @Test func largeResponseReachesASlowReaderIntact() throws {
        try TestServer.withClient() { _, client throws in
            client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let big = try client.readResponse()
            #expect(big.status == 200)
            #expect(big.body.count == TestServer.bigBody.count)
            #expect(big.body == TestServer.bigBody)
            #expect(try client.readResponse().text == "hello")
        }
    }

    @Test func headAnswersWithoutBody() throws {
        try TestServer.withClient() { _, client throws in
            client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try client.readResponse(headOnly: true)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "5")
            #expect(try client.readResponse().text == "hello")
        }
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() throws {
        let server = try TestServer()
        defer { server.stop() }
        let plain = try server.client()
        plain.send("GET /hello HTTP/1.0\r\n\r\n")
        let first = try plain.readResponse()
        #expect(first.status == 200)
        #expect(first.header("Connection") == "close")
        #expect(plain.waitForClose())

        let keepAlive = try server.client()
        keepAlive.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try keepAlive.readResponse().header("Connection") == "keep-alive")
        keepAlive.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try keepAlive.readResponse().status == 200)
    }

    @Test func connectionCloseIsHonoured() throws {
        try TestServer.withClient() { _, client throws in
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.header("Connection") == "close")
            #expect(client.waitForClose())
        }
    }

    @Test func expectContinueGetsAnInterimAnswer() throws {
        try TestServer.withClient() { _, client throws in
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
            #expect(try client.readResponse().status == 100)
            client.send("abc")
            #expect(try client.readResponse().text == "abc")
        }
    }

    @Test func clientHalfCloseStillGetsItsAnswer() throws {
        try TestServer.withClient() { _, client throws in
            client.send(TestServer.hello)
            client.shutdownWrite()
            #expect(try client.readResponse().text == "hello")
            #expect(client.waitForClose())
        }
    }

    @Test func routeMayAllowLargerBodies() throws {
        try TestServer.withClient() { _, client throws in
            let body = [UInt8](repeating: 0x61, count: 2 << 20)
            client.send(Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == String(2 << 20))
        }
    }
}

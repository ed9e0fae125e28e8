import Foundation
import Testing
@testable import HTTPServer

/// Every status code the server answers by itself, and the smuggling cases, over real sockets.
@Suite struct HTTPServerRejectionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let request: String
        let status: Int
        let closes: Bool
        var testDescription: String { name }
    }

    static let longTarget = "/" + String(repeating: "a", count: 8200)
    static let bigHeader = "X-Big: " + String(repeating: "b", count: 16500) + "\r\n"
    static let manyHeaders = (0..<101).map { "X-\($0): v\r\n" }.joined()

    static let cases: [Case] = [
        Case(name: "whitespace before colon", request: "GET /hello HTTP/1.1\r\nHost : x\r\n\r\n", status: 400, closes: true),
        Case(name: "no Host", request: "GET /hello HTTP/1.1\r\n\r\n", status: 400, closes: true),
        Case(name: "two Hosts", request: "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400, closes: true),
        Case(name: "bare LF", request: "GET /hello HTTP/1.1\nHost: x\n\n", status: 400, closes: true),
        Case(name: "obs-fold", request: "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n 2\r\n\r\n", status: 400, closes: true),
        Case(name: "control in value", request: "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\u{01}b\r\n\r\n", status: 400, closes: true),
        Case(name: "CL and TE", request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400, closes: true),
        Case(name: "two different CLs", request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", status: 400, closes: true),
        Case(name: "CL list that disagrees", request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\nabcd", status: 400, closes: true),
        Case(name: "signed CL", request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\nabc", status: 400, closes: true),
        Case(name: "chunked not last", request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", status: 400, closes: true),
        Case(name: "chunked twice", request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400, closes: true),
        Case(name: "unknown coding", request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", status: 501, closes: true),
        Case(name: "bad chunk size", request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n", status: 400, closes: true),
        Case(name: "request line too long", request: "GET \(longTarget) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414, closes: true),
        Case(name: "header section too large", request: "GET /hello HTTP/1.1\r\nHost: x\r\n\(bigHeader)\r\n", status: 431, closes: true),
        Case(name: "too many header fields", request: "GET /hello HTTP/1.1\r\nHost: x\r\n\(manyHeaders)\r\n", status: 431, closes: true),
        Case(name: "body too large", request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \((1 << 20) + 1)\r\n\r\n", status: 413, closes: true),
        Case(name: "chunked body too large", request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n100001\r\n", status: 413, closes: true),
        Case(name: "HTTP/2.0", request: "GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", status: 505, closes: true),
        Case(name: "garbage", request: "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\r\n\r\n", status: 400, closes: true),
        Case(name: "unknown path", request: "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n", status: 404, closes: false),
        Case(name: "bad percent-encoding in a parameter", request: "GET /v1/publications/%zz/issues/1 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, closes: false),
    ]

    @Test(arguments: cases)
    func rejects(_ testCase: Case) throws {
        try TestServer.withClient { _, client throws in
            client.send(testCase.request)
            let response = try client.readResponse()
            #expect(response.status == testCase.status)
            #expect(response.header("Content-Type") == "application/json")
            let json = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            let error = try #require(json["error"] as? [String: Any])
            #expect(error["code"] is String)
            #expect(error["message"] is String)
            if testCase.closes {
                #expect(response.header("Connection") == "close")
                #expect(client.waitForClose())
            } else {
                client.send(TestServer.hello)
                #expect(try client.readResponse().status == 200)
            }
        }
    }

    @Test func knownPathWithOtherMethodIs405WithAllow() throws {
        try TestServer.withClient() { _, client throws in
            client.send("DELETE /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
            // Rendered by the application's renderer (TestServer.errors), not by the server.
            #expect(response.text.contains(#""code":"methodNotAllowed""#))
        }
    }

    @Test func handlerHeaderWithCRLFBecomesA500() throws {
        let router = TestServer.defaultRouter { router in
            router.add("GET", "/split") { _ in HTTPResponse(status: 200, headers: [("X-A", "a\r\nSet-Cookie: evil=1")]) }
        }
        try TestServer.withClient(router: router) { _, client throws in
            client.send("GET /split HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 500)
            #expect(response.header("Set-Cookie") == nil)
            #expect(response.header("X-A") == nil)
        }
    }
}

import Testing
import TestSupport
@testable import HTTPServer

/// `Retry-After` (RFC 9110 §10.2.3) as it leaves the server on a real socket: once on every 429 and
/// 503, whoever made the answer, never twice.
@Suite struct RetryAfterOnTheWireTests {
    static func retryAfters(_ response: TestClient.Response) -> [String] {
        response.headers.filter { $0.0.lowercased() == "retry-after" }.map(\.1)
    }

    @Test func theServersOwnBusyAnswerCarriesOneWithEitherRenderer() throws {
        for errors in [HTTPServerError.plainText, TestServer.errors] {
            let router = RouterBuilder()
            router.add("GET", "/hello") { _ in .text(200, "hello") }
            let server = try TestServer(router: router.freeze(errors: errors)) { $0.maxConnections = 0 }
            defer { server.stop() }
            let client = try server.client()
            client.send(TestServer.hello)
            let refused = try client.readResponse()
            #expect(refused.status == 503)
            #expect(Self.retryAfters(refused) == ["1"])
        }
    }

    @Test func aHandlersOwnWaitIsSentOnceAndAMissingOneIsAdded() throws {
        let router = TestServer.defaultRouter {
            $0.add("GET", "/slow-down") { _ in HTTPResponse(status: 429, headers: [("Retry-After", "7")]) }
            $0.add("GET", "/unavailable") { _ in .text(503, "later") }
        }
        try TestServer.withClient(router: router) { _, client in
            client.send("GET /slow-down HTTP/1.1\r\nHost: x\r\n\r\nGET /unavailable HTTP/1.1\r\nHost: x\r\n\r\n")
            let slowDown = try client.readResponse(), unavailable = try client.readResponse()
            #expect(slowDown.status == 429 && Self.retryAfters(slowDown) == ["7"])
            #expect(unavailable.status == 503 && Self.retryAfters(unavailable) == ["1"])
        }
    }
}

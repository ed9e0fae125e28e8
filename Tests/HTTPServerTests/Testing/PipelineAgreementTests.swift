import HTTPServer
import HTTPServerTesting
import Testing
import TestSupport

/// `InProcessClient` and the server run one `RequestPipeline`: the same request gets the same
/// status, header fields and content through both, however the answer had to be finished.
@Suite struct PipelineAgreementTests {
    /// Renders the server's own answers; its 500 for an unsendable answer carries the message in a
    /// field whose value ends in LF, so it cannot be sent either (RFC 9110 §5.5).
    static let errors: HTTPErrorRenderer = { error in
        var response = HTTPResponse.text(error.status, "rendered \(error.kind)")
        if error.kind == .invalidResponse { response.headers.append(("X-Detail", error.message + "\n")) }
        return response
    }

    static func router() -> Router {
        let router = RouterBuilder()
        router.add("GET", "/hello") { _ in .text(200, "hello") }
        router.add("GET", "/unavailable") { _ in .text(503, "later") }
        router.add("GET", "/unavailable-split", execution: .worker) { _ in
            HTTPResponse(status: 503, headers: [("X-Note", "a\r\nSet-Cookie: evil=1")], body: Array("later".utf8))
        }
        router.add("GET", "/no-content") { _ in HTTPResponse(status: 204, body: Array("stray".utf8)) }
        return router.freeze(errors: errors)
    }

    /// Status, the fields a handler or renderer decides (not Content-Length, Date, Connection,
    /// which the server owns) and content.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var fields: [String]
        var body: String

        init(status: Int, headers: [(String, String)], body: [UInt8]) {
            self.status = status
            let serverOwned: Set = ["content-length", "date", "connection"]
            fields = headers.filter { !serverOwned.contains($0.0.lowercased()) }.map { "\($0.0): \($0.1)" }
            self.body = String(decoding: body, as: UTF8.self)
        }

        var description: String { "\(status) \(fields) \(body.debugDescription)" }
    }

    static let requests = [("GET", "/hello"), ("HEAD", "/hello"), ("GET", "/unavailable"),
                           ("GET", "/unavailable-split"), ("HEAD", "/unavailable-split"), ("GET", "/no-content")]

    @Test func theInProcessClientAndASocketGetTheSameAnswers() throws {
        let router = Self.router()
        let inProcess = InProcessClient(router: router)
        defer { inProcess.shutdown() }
        let server = try TestServer(router: router)
        defer { server.stop() }
        let socket = try server.client()
        for (method, path) in Self.requests {
            let direct = inProcess.send(method, path)
            socket.send("\(method) \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            let wire = try socket.readResponse(headOnly: method == "HEAD")
            #expect(Answer(status: direct.status, headers: direct.headers, body: direct.body)
                    == Answer(status: wire.status, headers: wire.headers, body: wire.body), "\(method) \(path)")
        }
    }

    /// The 503's `Retry-After` is added before the check (RFC 9110 §10.2.3), the check finds the
    /// split value and the renderer's own 500 is unsendable too: the plain-text 500 leaves.
    @Test func anUnsendable503ItsUnsendableReplacementAndA204WithContentFinishAlike() {
        let client = InProcessClient(router: Self.router())
        defer { client.shutdown() }
        let split = client.send("GET", "/unavailable-split")
        #expect(split.status == 500)
        #expect(split.headers.map(\.0) == ["Content-Type"])
        #expect(String(decoding: split.body, as: UTF8.self) == "The response had an invalid header.\n")
        #expect(client.send("GET", "/unavailable").header("Retry-After") == "1")
        let noContent = client.send("GET", "/no-content")
        #expect(noContent.status == 204 && noContent.body.isEmpty)
    }
}

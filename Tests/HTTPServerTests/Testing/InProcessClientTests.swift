import HTTPServer
import HTTPServerTesting
import Testing
import Wire

/// `InProcessClient` answers as the server would, without sockets.
@Suite struct InProcessClientTests {
    static let renderer: HTTPErrorRenderer = { error in .text(error.status, "rendered \(error.kind): \(error.message)") }

    static func router() -> Router {
        let router = RouterBuilder()
        router.add("GET", "/items/{id}") { request in .text(200, "item " + (request.pathParameters["id"] ?? "")) }
        router.add("POST", "/upload", execution: .worker, maxBodyBytes: 8) { request in .text(200, "\(request.body.count) bytes") }
        router.add("GET", "/cached", execution: .worker, fastPlan: { request in
            request.header("X-Warm") == "yes" ? .answer(.text(200, "fast")) : nil
        }, handler: { _ in .text(200, "pool") })
        router.add("GET", "/split") { _ in HTTPResponse(status: 200, headers: [("X-A", "a\r\nSet-Cookie: evil=1")]) }
        return router.freeze(errors: renderer)
    }

    @Test func routesDecodeParametersAndRunPoolHandlers() {
        let client = InProcessClient(router: Self.router())
        defer { client.shutdown() }
        #expect(client.send("GET", "/items/a%20b").text == "item a b")
        #expect(client.send("POST", "/upload", body: Array("12345678".utf8)).text == "8 bytes")
    }

    @Test func serverAnswersGoThroughTheRoutersRenderer() {
        let client = InProcessClient(router: Self.router())
        defer { client.shutdown() }
        #expect(client.send("GET", "/nothing").text == "rendered notFound: No route for /nothing.")
        let notAllowed = client.send("DELETE", "/items/1")
        #expect(notAllowed.status == 405)
        #expect(notAllowed.header("Allow") == "GET, HEAD")
        #expect(notAllowed.text.hasPrefix("rendered methodNotAllowed"))
        #expect(client.send("GET", "/items/%zz").status == 400)
        let tooLarge = client.send("POST", "/upload", body: Array("123456789".utf8))
        #expect(tooLarge.status == 413)
        #expect(tooLarge.text == "rendered contentTooLarge: The request body is larger than 8 bytes.")
        #expect(client.send("GET", "/split").text == "rendered invalidResponse: The response had an invalid header.")
    }

    @Test func fastPathFirstThenThePoolAndHeadWithoutBody() {
        let client = InProcessClient(router: Self.router())
        defer { client.shutdown() }
        #expect(client.send("GET", "/cached", headers: [("X-Warm", "yes")]).text == "fast")
        #expect(client.send("GET", "/cached").text == "pool")
        let head = client.send("HEAD", "/items/1")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}

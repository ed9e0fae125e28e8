import Testing
@testable import HTTPServer

@Suite struct HTTPRequestParserTests {
    let harness = ParserHarness()

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func parsesPipelinedRequestsWithBodies() {
        let input = bytes("GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                          + "PUT /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n")
        let expected: [ParserHarness.Outcome] = [
            .request(method: "GET", target: "/a", body: []),
            .request(method: "POST", target: "/b?x=1", body: bytes("abc")),
            .request(method: "PUT", target: "/c", body: bytes("hi")),
        ]
        #expect(harness.run(input).outcomes == expected)
        #expect(harness.run(input, pieces: Array(repeating: 1, count: input.count)).outcomes == expected)
        #expect(harness.run(input, pieces: [7, 30, 2, 50]).outcomes == expected)
    }

    @Test func keepsHeadersInOrderAndTrimsOWS() throws {
        var parser = HTTPRequestParser(limits: HTTPParserLimits())
        let input = bytes("GET / HTTP/1.1\r\nHost: x\r\nX-A:  one \t\r\nx-a: two\r\n\r\n")
        let (_, event) = input.withUnsafeBufferPointer { parser.parse($0) { _ in 0 } }
        guard case .request(let head, _) = event else { Issue.record("no request"); return }
        #expect(head.headers.values("X-A") == ["one", "two"])
        #expect(head.headers["HOST"] == "x")
        #expect(head.version == .http1_1)
    }

    @Test func acceptsAbsoluteFormAndLeadingEmptyLines() {
        let input = bytes("\r\nGET http://example.com/p?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(harness.run(input).outcomes == [.request(method: "GET", target: "/p?q=1", body: [])])
    }

    @Test func identicalRepeatedContentLengthsAreOneLength() {
        let input = bytes("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok")
        #expect(harness.run(input).outcomes == [.request(method: "POST", target: "/", body: bytes("ok"))])
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n", 400),
        ("GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n", 400),
        ("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/1.1 \r\nHost: x\r\n\r\n", 400),
        ("GET / http/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505),
        ("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET foo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n: empty-name\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\rX: y\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\n\r\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhiXX0\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2 junk\r\nhi\r\n0\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", 400),
        // RFC 9112 §3.2: one Host, a valid authority.
        ("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: u@evil\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a b/c\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a/c\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x:80x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x%zz\r\n\r\n", 400),
        // Singleton fields: a second copy is refused, not resolved by order.
        ("GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\ncontent-type: application/json\r\nContent-Length: 0\r\n\r\n", 400),
    ])
    func rejects(_ request: String, status: Int) {
        let input = bytes(request)
        #expect(harness.run(input).outcomes == [.failure(status: status)])
        #expect(harness.run(input, pieces: Array(repeating: 1, count: input.count)).outcomes == [.failure(status: status)])
    }

    @Test(arguments: ["x", "example.com:8080", "127.0.0.1", "[::1]:80", "[2001:db8::7]", "a-b.c_d~e:", "xn--bcher-kva.example", ""])
    func acceptsValidHostAuthorities(_ host: String) {
        #expect(statuses(harness, "GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n") == [200])
    }

    @Test func singletonFieldsAreConfigurable() {
        var limits = HTTPParserLimits()
        limits.singletonFields += ["X-Original-URI"]
        let strict = ParserHarness(limits: limits)
        let twice = "GET / HTTP/1.1\r\nHost: x\r\nX-Original-URI: /a\r\nX-Original-URI: /b\r\n\r\n"
        #expect(statuses(strict, twice) == [400])
        #expect(statuses(harness, twice) == [200], "not a singleton unless the application says so")
    }

    @Test func limitsHaveTheirOwnStatusCodesAtTheExactBoundary() {
        let limits = HTTPParserLimits()
        // "GET /" + path + " HTTP/1.1" is 14 bytes plus the path.
        let fitting = "GET /" + String(repeating: "a", count: limits.maxRequestLineBytes - 14) + " HTTP/1.1"
        #expect(fitting.utf8.count == limits.maxRequestLineBytes)
        #expect(statuses(harness, fitting + "\r\nHost: x\r\n\r\n") == [200])
        let tooLong = "GET /" + String(repeating: "a", count: limits.maxRequestLineBytes - 13) + " HTTP/1.1"
        #expect(statuses(harness, tooLong + "\r\nHost: x\r\n\r\n") == [414])
        // Without a line end in sight, the limit still holds.
        #expect(statuses(harness, tooLong + "aaaa") == [414])

        let fields = (0..<100).map { "X-\($0): v\r\n" }.joined()
        #expect(statuses(harness, "GET / HTTP/1.1\r\nHost: x\r\n" + fields + "\r\n") == [431])
        let ninetyNine = (0..<99).map { "X-\($0): v\r\n" }.joined()
        #expect(statuses(harness, "GET / HTTP/1.1\r\nHost: x\r\n" + ninetyNine + "\r\n") == [200])
        let bigValue = String(repeating: "v", count: limits.maxHeaderBytes)
        #expect(statuses(harness, "GET / HTTP/1.1\r\nHost: x\r\nX: " + bigValue + "\r\n\r\n") == [431])

        var small = harness
        small.bodyLimit = 3
        #expect(statuses(small, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc") == [200])
        #expect(statuses(small, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd") == [413])
        #expect(statuses(small, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n2\r\ncd\r\n0\r\n\r\n") == [413])
    }

    /// 200 for each request found, the status of a failure: short enough to print on failure.
    private func statuses(_ harness: ParserHarness, _ text: String) -> [Int] {
        harness.run(bytes(text)).outcomes.map { outcome in
            if case .failure(let status) = outcome { return status }
            return 200
        }
    }

    @Test func reportsProgressForTheTimeouts() {
        var parser = HTTPRequestParser(limits: HTTPParserLimits())
        #expect(parser.progress == .idle)
        let head = bytes("POST / HTTP/1.1\r\nHo")
        let consumed = head.withUnsafeBufferPointer { parser.parse($0) { _ in 10 } }.consumed
        #expect(parser.progress == .head)
        let rest = Array(head[consumed...]) + bytes("st: x\r\nContent-Length: 5\r\n\r\nab")
        _ = rest.withUnsafeBufferPointer { parser.parse($0) { _ in 10 } }
        #expect(parser.progress == .body)
    }
}

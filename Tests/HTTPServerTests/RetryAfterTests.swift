@testable import HTTPServer
import Testing
import Wire

/// `Retry-After` (RFC 9110 §10.2.3) on every 429 and 503, in seconds within 1...3600.
@Suite struct RetryAfterTests {
    @Test func a503WithoutAWaitGetsTheFallback() {
        #expect(HTTPResponse.text(503, "busy").withRetryAfter().header("Retry-After") == "1")
        #expect(HTTPResponse.text(429, "slow down").withRetryAfter(fallbackSeconds: 7).header("Retry-After") == "7")
    }

    @Test func aWaitAlreadyNamedIsKeptWithinTheRange() {
        let named = HTTPResponse(status: 429, headers: [("retry-after", "42")]).withRetryAfter()
        #expect(named.headers.filter { $0.0.lowercased() == "retry-after" }.map(\.1) == ["42"])
        #expect(HTTPResponse(status: 503, headers: [("Retry-After", "0")]).withRetryAfter().header("Retry-After") == "1")
        #expect(HTTPResponse(status: 503, headers: [("Retry-After", "86400")]).withRetryAfter().header("Retry-After") == "3600")
    }

    @Test func theServerLeavesAWrittenValueToItsAuthor() {
        // The simulator plays Apple, whose Retry-After is a UNIX time in milliseconds.
        let apple = HTTPResponse(status: 429, headers: [("Retry-After", "1774000000000")])
        #expect(apple.withRetryAfter(clamping: false).header("Retry-After") == "1774000000000")
        #expect(HTTPResponse(status: 503).withRetryAfter(clamping: false).header("Retry-After") == "1")
    }

    @Test func otherStatusesAreUntouched() {
        #expect(HTTPResponse.text(200, "ok").withRetryAfter().header("Retry-After") == nil)
        #expect(HTTPResponse.text(500, "broken").withRetryAfter().header("Retry-After") == nil)
    }

    /// The `Retry-After` lines of `response` as the server writes it.
    static func retryAfterLines(_ response: HTTPResponse) -> [String] {
        var bytes: [UInt8] = []
        ResponseSerializer.write(response, framing: .init(headOnly: false, close: false, announceKeepAlive: false),
                                 date: [], errors: HTTPServerError.plainText, into: &bytes)
        return String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
            .filter { $0.lowercased().hasPrefix("retry-after:") }
    }

    @Test func theServersOwnBusyAnswerCarriesIt() {
        #expect(Self.retryAfterLines(HTTPServerError.plainText(HTTPServerError(.busy, "busy"))) == ["Retry-After: 1"])
        #expect(Self.retryAfterLines(HTTPServerError.plainText(HTTPServerError(.tooManyConnections, "full"))) == ["Retry-After: 1"])
        #expect(Self.retryAfterLines(HTTPServerError.plainText(HTTPServerError(.notFound, "none"))).isEmpty)
    }

    @Test func applesMillisecondInstantBecomesSecondsRoundedUp() {
        let now = Instant(millisecondsSinceEpoch: 1_000_000)
        #expect(RetryAfter.seconds(until: Instant(millisecondsSinceEpoch: 1_120_000), now: now) == 120)
        #expect(RetryAfter.seconds(until: Instant(millisecondsSinceEpoch: 1_000_001), now: now) == 1)
        #expect(RetryAfter.seconds(until: Instant(millisecondsSinceEpoch: 999_000), now: now) == 1, "a time past: the minimum")
        #expect(RetryAfter.seconds(until: Instant(millisecondsSinceEpoch: 100_000_000), now: now) == 3600)
    }
}

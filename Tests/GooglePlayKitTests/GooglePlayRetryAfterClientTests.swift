import Testing
@testable import GooglePlayKit

/// Google's `Retry-After` (RFC 9110 §10.2.3) against the client's own retries: a wait longer than
/// the longest backoff is not slept through on a worker; the call ends at once carrying it
/// (docs/decisions/70), whether Google gave seconds or an HTTP-date.
@Suite struct GooglePlayRetryAfterClientTests {
    // The second is an HTTP-date 90 s after the fixture's start (2026-01-01T00:00:00Z), the
    // client's and the simulator's now.
    @Test(arguments: [(503, "30", 30), (429, "Thu, 01 Jan 2026 00:01:30 GMT", 90)])
    func aLongWaitEndsTheCallAtOnceCarryingIt(status: Int, retryAfter: String, seconds: Int) throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        play.simulator.failNextCalls(10, status: status, retryAfter: retryAfter)
        #expect(throws: GooglePlayError.unavailable("HTTP \(status)", retryAfterSeconds: seconds)) {
            try play.client.subscription(packageName: play.packageName, token: "tok-1")
        }
        #expect(play.pauses.values.withLock { $0 }.isEmpty)
    }

    /// The token endpoint's wait is Google's too: a throttled access-token request ends the call
    /// carrying it, before any API call.
    @Test func theTokenEndpointsWaitIsCarriedToo() throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        play.simulator.failNextTokenCalls(10, status: 429, retryAfter: "30")
        #expect(throws: GooglePlayError.unavailable("the token endpoint answered HTTP 429", retryAfterSeconds: 30)) {
            try play.client.subscription(packageName: play.packageName, token: "tok-1")
        }
        #expect(play.pauses.values.withLock { $0 }.isEmpty)
    }
}

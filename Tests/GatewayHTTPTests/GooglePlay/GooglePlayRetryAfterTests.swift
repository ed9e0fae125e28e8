import Foundation
import GooglePlaySimulator
import Testing
import GatewayTesting

/// http-api.md: a wait Google asked for (its `Retry-After` on a 429 or 503) is passed on in the
/// gateway's 503, clamped to 1…3600 seconds.
@Suite struct GooglePlayRetryAfterTests {
    static func answer(retryAfter: String) throws -> APIResponse {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.simulator.buy(token: "tok-1", productId: "basic")
        g.simulator.failNextCalls(10, status: 503, retryAfter: retryAfter)
        return try g.post(reader, productId: "basic", token: "tok-1")
    }

    @Test func googlesRetryAfterIsPassedOn() throws {
        let answer = try Self.answer(retryAfter: "7")
        #expect(answer.status == 503 && answer.header("Retry-After") == "7", "\(answer.text)")
    }

    @Test func aWaitOverAnHourIsClamped() throws {
        let answer = try Self.answer(retryAfter: "86400")
        #expect(answer.status == 503 && answer.header("Retry-After") == "3600", "\(answer.text)")
    }
}

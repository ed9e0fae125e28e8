@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// Fairness: anyone may create accounts, so `POST /v1/accounts` is
/// rate-limited per source address, answered 429 `rate_limited` with `Retry-After`.
@Suite struct AccountCreationLimitTests {
    @Test func creationPastTheBurstIs429WithRetryAfterUntilTheBucketRefills() throws {
        let h = try H(transport: .socket, configure: { c in
            c.accountCreationBurst = 3
            c.accountCreationPerMinute = 2
        })
        for _ in 0..<3 { #expect(try h.client.post("/v1/accounts").status == 201) }
        let refused = try h.client.post("/v1/accounts")
        #expect(refused.status == 429)
        #expect(refused.errorCode == "rate_limited")
        #expect(refused.hasErrorShape)
        #expect(refused.header("Retry-After") == "30", "two a minute: the next in 30 s")
        h.clock.advance(seconds: 29)
        #expect(try h.client.post("/v1/accounts").status == 429)
        h.clock.advance(seconds: 1)
        #expect(try h.client.post("/v1/accounts").status == 201)
        #expect(try h.client.post("/v1/accounts").status == 429)
    }
}

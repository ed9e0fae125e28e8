import Foundation
import GooglePlaySimulator
import Testing
import GatewayTesting

/// googleplay.md's state table: `ON_HOLD` is billing retry with no access (E9), also when Google
/// puts the subscription on hold before the end of a grace it reported earlier: the latest state wins.
@Suite struct GooglePlayHoldAfterGraceTests {
    let lifecycle = GooglePlayLifecycleTests()

    @Test func e9OnHoldAfterGraceIsBillingRetryNotGrace() throws {
        let (g, reader) = try lifecycle.subscribed()
        g.advance(days: 30)                                                    // March 31st: the renewal fails
        try lifecycle.take(g, try g.simulator.grace("tok-1", days: 7))         // grace reported to April 7th
        #expect(try lifecycle.state(g, reader) == "gracePeriod")
        g.advance(days: 2)                                                     // April 2nd: on hold
        try lifecycle.take(g, try g.simulator.hold("tok-1"))
        let held = try #require(try g.subscriptions(reader).first)
        #expect(held["state"] as? String == "billingRetry")
        #expect((held["entitlementCode"] as? NSNumber)?.doubleValue == -1)
        g.advance(days: 3)                                                     // April 5th, before the grace reported
        #expect(try lifecycle.state(g, reader) == "billingRetry")
        g.advance(days: 10)                                                    // April 15th: p3 is published on hold
        #expect(try g.entitled(reader) == ["p1", "p2"])
    }
}

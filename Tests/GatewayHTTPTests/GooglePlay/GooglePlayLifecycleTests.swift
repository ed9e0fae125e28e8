import Foundation
import GooglePlaySimulator
import Testing
import Wire
import GatewayTesting

/// Each scenario step of a Play subscription driven through the simulator and Google's pushes, the
/// entitled issues and the state checked against E5–E28. The reader subscribes on March 1st for 30
/// days; `play` has issues on February 15th (p1), March 15th (p2), April 15th (p3), April 28th
/// (p4b), May 15th (p5).
@Suite struct GooglePlayLifecycleTests {
    static let uuid = "5d0c7a2e-1f3b-4a6c-9d8e-0a1b2c3d4e5f"

    /// A gateway with a reader whose app set `obfuscatedAccountId`, subscribed to `basic` by a push;
    /// with `ordersRefused`, the Orders API refuses the gateway from the start (E25).
    func subscribed(ordersRefused: Bool = false) throws -> (GooglePlayGateway, (id: String, token: String)) {
        let g = try GooglePlayGateway()
        g.simulator.refusesOrders = ordersRefused
        let created = try g.h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(Self.uuid)"}"#)
        let reader = (id: try #require(created.json["accountId"] as? String), token: try #require(created.json["accountToken"] as? String))
        try take(g, try g.simulator.buy(token: "tok-1", productId: "basic", account: Self.uuid))
        return (g, reader)
    }

    func take(_ g: GooglePlayGateway, _ notification: SimulatedNotification) throws {
        let answer = try g.push(notification)
        guard answer.status == 200 else { throw HarnessError.unexpected("push answered \(answer.status): \(answer.text)") }
    }

    func state(_ g: GooglePlayGateway, _ reader: (id: String, token: String)) throws -> String? {
        try g.subscriptions(reader).first?["state"] as? String
    }

    @Test func e5RenewalsEntitleTheirServicePeriods() throws {
        let (g, reader) = try subscribed()
        #expect(try state(g, reader) == "active")
        g.advance(days: 30)
        try take(g, try g.simulator.renew("tok-1"))
        g.advance(days: 16)                                                    // April 16th
        #expect(try g.entitled(reader) == ["p1", "p2", "p3"])
    }

    @Test func e8GraceThenRecoveryKeepsTheRenewalDate() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 30)                                                    // March 31st: the renewal fails
        try take(g, try g.simulator.grace("tok-1", days: 3))
        #expect(try state(g, reader) == "gracePeriod")
        g.advance(days: 2)
        try take(g, try g.simulator.recover("tok-1"))
        #expect(try state(g, reader) == "active")
        g.advance(days: 14)                                                    // April 16th
        #expect(try g.entitled(reader) == ["p1", "p2", "p3"])
        let order = try #require(g.simulator.subscription("tok-1")?.orderIds.last.flatMap(g.simulator.order))
        #expect(order.periodStart == Instant(rfc3339: "2026-03-31T00:00:00Z"))
    }

    @Test func e9OnHoldEntitlesNothingUntilTheRecoveryUnlocks() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 30)
        try take(g, try g.simulator.hold("tok-1"))
        #expect(try state(g, reader) == "billingRetry")
        g.advance(days: 14)                                                    // April 14th
        #expect(try g.entitled(reader) == ["p1", "p2"])
        g.advance(days: 2)                                                     // April 16th: paid again
        try take(g, try g.simulator.recover("tok-1"))
        // E13: the period that starts with the recovery unlocks p3 (April 15th).
        #expect(try g.entitled(reader) == ["p1", "p2", "p3"])
    }

    @Test func e27APauseEntitlesNothingAndTheResumeUnlocks() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 30)                                                    // March 31st
        let resume = Instant(rfc3339: "2026-05-01T00:00:00Z")!
        try take(g, try g.simulator.pause("tok-1", resumeAt: resume))
        #expect(try state(g, reader) == "paused")
        g.advance(days: 16)
        #expect(try g.entitled(reader) == ["p1", "p2"])
        g.advance(days: 15)                                                    // May 1st
        try take(g, try g.simulator.resume("tok-1"))
        g.advance(days: 15)
        #expect(try state(g, reader) == "active")
        #expect(try g.entitled(reader) == ["p1", "p2", "p4b", "p5"])
    }

    @Test func e19CancelServesUntilExpiryThenExpires() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 10)
        try take(g, try g.simulator.cancel("tok-1"))
        #expect(try state(g, reader) == "activeAutoRenewOff")
        g.advance(days: 20)
        try take(g, try g.simulator.expire("tok-1"))
        g.advance(days: 16)
        #expect(try state(g, reader) == "expiredVoluntary")
        #expect(try g.entitled(reader) == ["p1", "p2"])
    }

    @Test func e24ARevokeWithoutAVoidedOrderCutsAtTheNotification() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 10)                                                    // March 11th
        try take(g, try g.simulator.revoke("tok-1"))
        g.advance(days: 5)
        // p1 was unlocked before the cut and stays; p2 (March 15th) came after it.
        #expect(try g.entitled(reader) == ["p1"])
        #expect(try state(g, reader) == "expiredOther")
    }

    @Test(arguments: [false, true])
    func e24ARefundedOrChargedBackOrderIsNeverBought(chargeback: Bool) throws {
        let (g, reader) = try subscribed()
        g.advance(days: 20)
        let orderId = try #require(g.simulator.subscription("tok-1")?.orderIds.first)
        try take(g, try g.simulator.refund(orderId: orderId, chargeback: chargeback))
        #expect(try g.entitled(reader).isEmpty)
        #expect(try state(g, reader) == "revoked")
    }

    @Test func aPendingPurchaseEntitlesNothingAndItsCancelNeither() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        g.advance(days: 20)
        g.simulator.buyProduct(token: "p-tok", productId: "issue_p2", pending: true)
        #expect(try g.post(reader, productId: "issue_p2", token: "p-tok").status == 200)
        try take(g, try g.simulator.cancelPendingProduct("p-tok"))
        #expect(try g.entitled(reader).isEmpty)
        #expect(g.simulator.acknowledgements.isEmpty)
    }
}

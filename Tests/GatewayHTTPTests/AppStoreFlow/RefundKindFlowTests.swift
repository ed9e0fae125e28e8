import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// E24 through the App Store path: a V2 `REFUND` notification whose transaction says how it was
/// revoked (`revocationType`, `revocationPercentage`), then `REFUND_REVERSED`. The renewal
/// 10002 runs 10 March to 10 April; the March issue came out on the 15th; the cut is the 18th.
@Suite struct RefundKindFlowTests {
    private func refund(_ flow: AppStoreFlow, type: String?, percentage: Int? = nil) throws {
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production,
                                  at: FlowFixtures.at("2026-03-18T00:00:00Z"), type: type, percentage: percentage)
        let body = try flow.simulator.notificationV2(FlowFixtures.production, type: "REFUND", transactionId: "10002")
        #expect(try flow.notify(body).status == 200)
    }

    @Test(arguments: [("REFUND_PRORATED", ["2026-01", "2026-02", "2026-03"], "expiredVoluntary", -2.0),
                      ("FAMILY_REVOKE", ["2026-01", "2026-02", "2026-03"], "expiredOther", -6.0),
                      ("REFUND_FULL", ["2026-01", "2026-02"], "revoked", -7.0)])
    func aRefundVoidsOrCutsByItsType(type: String, entitled: [String], state: String, code: Double) throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try refund(flow, type: type)
        #expect(try flow.entitledIssues(reader) == entitled)
        let subscription = try #require(try flow.subscriptions(reader).first)
        #expect(subscription["state"] as? String == state)
        #expect(subscription["entitlementCode"] as? Double == code)
    }

    @Test func aProratedRefundIsShownWithItsShareAndAReversalRestoresIt() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try refund(flow, type: "REFUND_PRORATED", percentage: 58_000)
        let history = try flow.call("GET", "/v1/accounts/\(reader.id)/history")
        let events = try #require(history.json["events"] as? [[String: Any]])
        let details = try #require(events.first { $0["kind"] as? String == "refund" })
        #expect(details["revocationType"] as? String == "proratedRefund")
        #expect(details["revocationPercentage"] as? Int == 58_000)
        #expect(details["cut"] as? String == "2026-03-18T00:00:00.000Z")
        flow.clock.advance(seconds: 60)
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, reverse: true)
        let reversed = try flow.simulator.notificationV2(FlowFixtures.production, type: "REFUND_REVERSED", transactionId: "10002")
        #expect(try flow.notify(reversed).status == 200)
        let subscription = try #require(try flow.subscriptions(reader).first)
        #expect(subscription["state"] as? String == "active")
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
    }
}

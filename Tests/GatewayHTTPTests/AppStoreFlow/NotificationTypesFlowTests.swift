import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// Every V2 notification type is handled or recorded: facts it carries are stored
/// (a reversal or an extension as the newer description, E1), the rest recorded, and an
/// unknown type is answered 200, never an error.
@Suite struct NotificationTypesFlowTests {
    private func notify(_ flow: AppStoreFlow, _ type: String, subtype: String? = nil, transactionId: String? = nil) throws -> Int {
        try flow.notify(try flow.simulator.notificationV2(FlowFixtures.production, type: type, subtype: subtype,
                                                          transactionId: transactionId)).status
    }

    @Test func aRefundReversedGivesTheIssueBack() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        #expect(try notify(flow, "REFUND", transactionId: "10002") == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        flow.clock.advance(seconds: 60)
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, reverse: true)
        #expect(try notify(flow, "REFUND_REVERSED", transactionId: "10002") == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
    }

    @Test func aRenewalExtendedMovesTheExpiry() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        flow.clock.advance(seconds: 60)
        var extended = try #require(flow.simulator.receipt(FlowFixtures.production)?.transactions.last)
        extended.expiresDate = FlowFixtures.at("2026-04-17T00:00:00Z")
        try flow.simulator.addTransaction(extended, to: FlowFixtures.production)
        #expect(try notify(flow, "RENEWAL_EXTENDED", transactionId: extended.transactionId) == 200)
        #expect(try flow.subscriptions(reader).first?["expiresAt"] as? String == "2026-04-17T00:00:00.000Z")
    }

    /// appstore.md, Fields added since 2024: a single issue bought without the app telling the
    /// gateway reaches it as `ONE_TIME_CHARGE`, taken like any signed transaction (E14), for the
    /// account its appAccountToken names (E4).
    @Test func e14AOneTimeChargeEntitlesItsIssue() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.newReader(appAccountToken: FlowFixtures.appAccountToken)
        #expect(try flow.entitledIssues(reader).isEmpty)
        try flow.simulator.addTransaction(
            ScriptedTransaction(transactionId: "20000", productId: "issue.2026-02", purchaseDate: FlowFixtures.at("2026-03-01T00:00:00Z"),
                                appAccountToken: FlowFixtures.appAccountToken),
            to: FlowFixtures.production)
        #expect(try notify(flow, "ONE_TIME_CHARGE", transactionId: "20000") == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-02"])
        #expect(try flow.storedTransactionIds(reader) == ["20000"])
    }

    @Test(arguments: ["REVOKE", "PRICE_INCREASE", "OFFER_REDEEMED", "CONSUMPTION_REQUEST", "ONE_TIME_CHARGE", "TEST",
                      "REFUND_DECLINED", "RENEWAL_EXTENSION", "EXTERNAL_PURCHASE_TOKEN", "A_TYPE_APPLE_ADDS_LATER"])
    func everyTypeIsAnswered200AndCounted(_ type: String) throws {
        let flow = try AppStoreFlow()
        _ = try flow.subscribedReader()
        #expect(try notify(flow, type) == 200)
        let label = NotificationV2Types.label(type)
        #expect(label == (type == "A_TYPE_APPLE_ADDS_LATER" ? "OTHER" : type))
        let metrics = try flow.call("GET", "/metrics", bearer: nil)
        #expect(metrics.text.contains(#"issue_gateway_appstore_notifications_by_type_total{type="\#(label)"} 1"#))
    }
}

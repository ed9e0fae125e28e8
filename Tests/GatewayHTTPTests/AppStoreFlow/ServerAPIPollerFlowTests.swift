import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import Testing
import GatewayTesting

/// The status poller on the App Store Server API: with credentials it asks Get All
/// Subscription Statuses about subscriptions near expiry, so a subscription known only from
/// signed data (no receipt to re-verify) still hears of a refund no notification announced.
@Suite struct ServerAPIPollerFlowTests {
    private static let dayBeforeExpiry = FlowFixtures.at("2026-04-09T12:00:00Z")

    @Test func aRefundRecordedOnlyInTheSimulatorReachesTheAccountThroughThePoller() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try flow.newReader()
        let latest = try #require(try flow.simulator.signedTransactions(FlowFixtures.production).last)
        try #require(try flow.sendSignedTransactions([latest], for: reader).status == 200)
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        flow.clock.set(Self.dayBeforeExpiry)
        #expect(try #require(flow.runtime.poller).pass() == 0)
        #expect(flow.runtime.core.counters.pollChecks.value == 1)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(flow.simulator.requests.isEmpty, "no verifyReceipt call: the statuses answered")
    }

    @Test func withoutCredentialsASignedDataSubscriptionHasNothingToReverify() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.newReader()
        try #require(try flow.sendSignedTransactions(try flow.simulator.signedTransactions(FlowFixtures.production), for: reader).status == 200)
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        flow.clock.set(Self.dayBeforeExpiry)
        #expect(try #require(flow.runtime.poller).pass() == 0)
        #expect(flow.runtime.core.counters.pollChecks.value == 0)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
    }

    @Test func aSubscriptionInGraceIsPolledPastTheLookBack() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try flow.newReader()
        let latest = try #require(try flow.simulator.signedTransactions(FlowFixtures.production).last)
        try #require(try flow.sendSignedTransactions([latest], for: reader).status == 200)
        // A notification told the gateway of a 16-day grace period after the 04-10 expiry.
        try flow.simulator.setRenewal(ScriptedRenewal(originalTransactionId: "10000", productId: "monthly.1m",
                                                      isInBillingRetryPeriod: false,
                                                      gracePeriodExpiresDate: FlowFixtures.at("2026-04-26T00:00:00Z")),
                                      in: FlowFixtures.production)
        #expect(try flow.notify(try flow.simulator.notificationV2(FlowFixtures.production, type: "DID_FAIL_TO_RENEW",
                                                                  subtype: "GRACE_PERIOD")).status == 200)
        flow.clock.set(FlowFixtures.at("2026-04-20T00:00:00Z"))
        var renewal = FlowFixtures.renewal
        renewal.subscriptionGroupIdentifier = "g"
        try flow.simulator.addTransaction(renewal, to: FlowFixtures.production)
        #expect(try #require(flow.runtime.poller).pass() == 0)
        #expect(flow.runtime.core.counters.pollChecks.value == 1)
        #expect(try flow.subscriptions(reader).first?["expiresAt"] as? String == "2026-05-10T00:00:00.000Z")
    }
}

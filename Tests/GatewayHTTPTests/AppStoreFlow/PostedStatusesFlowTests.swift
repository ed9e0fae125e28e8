import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import GatewayCore
import GatewayStore
import Testing
import TestSupport
import GatewayTesting

/// After a StoreKit 2 signed transaction is posted the gateway asks Apple for the subscription's
/// statuses (http-api.md, Support, grants and Apple's current API): what Apple knows and the
/// posted transaction does not (a renewal, the renewal info) makes the state right without a
/// refresh (E19).
@Suite struct PostedStatusesFlowTests {
    /// A reader whose subscription's history the gateway fetched on 03-20; Apple then renewed it
    /// (04-10 → 05-10) and it is now 04-15. The app posts the transaction it still holds, 10002,
    /// which ended on 04-10: on its own it says the subscription expired (-6).
    private func renewedWhileAway(_ flow: AppStoreFlow) throws -> (AppStoreFlow.Reader, String) {
        let reader = try flow.newReader()
        let held = try #require(try flow.simulator.signedTransactions(FlowFixtures.production).last)
        try #require(try flow.sendSignedTransactions([held], for: reader).status == 200)
        try flow.simulator.addTransaction(FlowFixtures.renewal, to: FlowFixtures.production)
        flow.clock.set(FlowFixtures.at("2026-04-15T00:00:00Z"))
        return (reader, held)
    }

    private func entitlementCode(_ subscriptions: [[String: Any]]?) -> Double? {
        (subscriptions?.first?["entitlementCode"] as? NSNumber)?.doubleValue
    }

    private func code(_ answer: AppStoreFlow.Response) -> Double? {
        entitlementCode(answer.json["subscriptions"] as? [[String: Any]])
    }

    @Test func e19ThePostedSubscriptionIsActiveAndRenewingInTheSameAnswer() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let (reader, held) = try renewedWhileAway(flow)
        let answer = try flow.sendSignedTransactions([held], for: reader)
        #expect(answer.status == 200)
        let subscription = (answer.json["subscriptions"] as? [[String: Any]])?.first
        #expect(subscription?["state"] as? String == "active")
        #expect(code(answer) == 1, "E19: active, will renew")
        #expect(subscription?["expiresAt"] as? String == "2026-05-10T00:00:00.000Z", "Apple's renewal, from its statuses")
        #expect(flow.runtime.core.counters.postedStatusesFetched.value == 2)
    }

    @Test func whenAppleIsSlowTheStatusesArriveWithinASecondOfTheAnswer() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let (reader, held) = try renewedWhileAway(flow)
        flow.simulator.configureServerAPI { $0.statusesDelayMilliseconds = 1_200 }
        let started = ContinuousClock.now
        let answer = try flow.sendSignedTransactions([held], for: reader)
        let answered = ContinuousClock.now
        #expect(answer.status == 200)
        #expect(answered - started < .milliseconds(1_200), "the post did not wait for Apple's slow answer")
        #expect(code(answer) == -6, "what the posted transaction alone says")
        #expect(eventually(seconds: 5) { (try? flow.subscriptions(reader)).map(self.entitlementCode) == 1 })
        #expect(ContinuousClock.now - answered <= .milliseconds(1_000))
    }

    @Test func aFailedFetchNeverFailsThePostAndIsRetriedInTheBackground() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let (reader, held) = try renewedWhileAway(flow)
        // Two 429s naming a wait past the client's deadline: the fetch after the post and its
        // first retry fail at once.
        flow.simulator.configureServerAPI { $0.rateLimitedRequests = 2; $0.retryAfterMilliseconds = 60_000 }
        let answer = try flow.sendSignedTransactions([held], for: reader)
        #expect(answer.status == 200)
        #expect(code(answer) == -6)
        // The background retries (2 s, then 4 s, less jitter) get through once Apple answers.
        #expect(eventually(seconds: 15) { (try? flow.subscriptions(reader)).map(self.entitlementCode) == 1 })
        #expect(flow.simulator.serverAPISettings.rateLimitedRequests == 0)
    }

    @Test func withoutServerAPICredentialsNothingIsFetched() throws {
        let flow = try AppStoreFlow()
        let (reader, held) = try renewedWhileAway(flow)
        let answer = try flow.sendSignedTransactions([held], for: reader)
        #expect(answer.status == 200)
        #expect(code(answer) == -6)
        #expect(flow.runtime.core.counters.postedStatusesFetched.value == 0)
    }
}

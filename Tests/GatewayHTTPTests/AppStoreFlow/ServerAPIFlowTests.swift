import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import Testing
import GatewayTesting

/// End to end: a gateway with App Store Server API credentials against the simulator
/// over HTTP. A StoreKit 2 app sends only its latest signed transaction; the gateway fetches the
/// subscription's history once and the reader gets the back issues of earlier periods.
@Suite struct ServerAPIFlowTests {
    /// The newest of the three monthly transactions of `receipt`, as StoreKit 2 would hand it over.
    private func latestSignedTransaction(_ flow: AppStoreFlow, _ receipt: String = FlowFixtures.production) throws -> String {
        try #require(try flow.simulator.signedTransactions(receipt).last)
    }

    @Test func theLatestSignedTransactionBringsTheBackIssuesOfEarlierPeriods() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try flow.newReader()
        let answer = try flow.sendSignedTransactions([try latestSignedTransaction(flow)], for: reader)
        #expect(answer.status == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        #expect(try flow.storedTransactionIds(reader) == ["10000", "10001", "10002"], "E4: the history is bound to the reader")
        #expect(flow.runtime.core.counters.historiesFetched.value == 1)
    }

    @Test func onlyTheProvedSubscriptionIsTakenFromTheCustomersHistory() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        try flow.simulator.addTransaction(
            ScriptedTransaction(transactionId: "90000", productId: "monthly.1m", purchaseDate: FlowFixtures.at("2025-01-10T00:00:00Z"),
                                expiresDate: FlowFixtures.at("2025-02-10T00:00:00Z"), subscriptionGroupIdentifier: "g"),
            to: FlowFixtures.production)
        let reader = try flow.newReader()
        let signed = try flow.simulator.signedTransactions(FlowFixtures.production)
        try #require(signed.count == 4)
        #expect(try flow.sendSignedTransactions([signed[2]], for: reader).status == 200)
        #expect(try flow.storedTransactionIds(reader) == ["10000", "10001", "10002"], "not the other subscription 90000")
    }

    @Test func withoutServerAPICredentialsOnlyTheSentPeriodCounts() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.newReader()
        #expect(try flow.sendSignedTransactions([try latestSignedTransaction(flow)], for: reader).status == 200)
        // E13 unlocks February's issue at the March period's start; January's is lost.
        #expect(try flow.entitledIssues(reader) == ["2026-02", "2026-03"])
        #expect(flow.runtime.core.counters.historiesFetched.value == 0)
    }

    @Test func aHistoryIsFetchedOnceEvenWhenTheAppSendsAgain() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try flow.newReader()
        let signed = try latestSignedTransaction(flow)
        #expect(try flow.sendSignedTransactions([signed], for: reader).status == 200)
        #expect(try flow.sendSignedTransactions([signed], for: reader).status == 200)
        #expect(flow.runtime.core.counters.historiesFetched.value == 1)
    }

    @Test func aRateLimitedHistoryIsFetchedAfterRetryAfter() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        flow.simulator.configureServerAPI { $0.rateLimitedRequests = 1; $0.retryAfterMilliseconds = 50 }
        let reader = try flow.newReader()
        #expect(try flow.sendSignedTransactions([try latestSignedTransaction(flow)], for: reader).status == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        #expect(flow.simulator.serverAPISettings.rateLimitedRequests == 0, "the 429 was answered")
    }

    @Test func whenAppleCannotAnswerTheSignedTransactionStillCountsAndTheHistoryComesLater() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        flow.simulator.configureServerAPI { $0.rateLimitedRequests = 100; $0.retryAfterMilliseconds = 60_000 }
        let reader = try flow.newReader()
        let signed = try latestSignedTransaction(flow)
        #expect(try flow.sendSignedTransactions([signed], for: reader).status == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-02", "2026-03"])
        flow.simulator.configureServerAPI { $0.rateLimitedRequests = 0 }
        #expect(try flow.sendSignedTransactions([signed], for: reader).status == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
    }
}

/// A notification naming a subscription the gateway has not seen whole brings its history too.
@Suite struct ServerAPINotificationHistoryFlowTests {
    @Test func aNotificationForAnUnseenSubscriptionFetchesItsHistoryForTheTokensAccount() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try flow.newReader(appAccountToken: FlowFixtures.appAccountToken)
        #expect(try flow.notify(try flow.simulator.notificationV2(FlowFixtures.tokenBound, type: "DID_RENEW")).status == 200)
        #expect(try flow.storedTransactionIds(reader) == ["40000", "40001", "40002"], "E4: bound by appAccountToken")
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        #expect(flow.runtime.core.counters.historiesFetched.value == 1)
    }
}

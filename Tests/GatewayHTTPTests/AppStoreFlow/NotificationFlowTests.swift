import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import Synchronization
import Testing
import GatewayTesting

/// `POST /v1/appstore/notifications` with notifications the simulator builds (http-api.md "App
/// Store"; appstore.md V1 and V2; E1, E2, E6).
@Suite struct NotificationFlowTests {
    @Test func v1WithTheSharedSecretIsTakenAndADuplicateIsHarmless() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try flow.simulator.addTransaction(FlowFixtures.renewal, to: FlowFixtures.production)
        let body = try flow.simulator.notificationV1(FlowFixtures.production, type: "DID_RENEW")
        let first = try flow.notify(body)
        let afterFirst = try flow.storedTransactionIds(reader)
        let second = try flow.notify(body)
        #expect(first.status == 200 && second.status == 200)
        #expect(afterFirst == ["10000", "10001", "10002", "10003"])
        #expect(try flow.storedTransactionIds(reader) == afterFirst)
        let expires = try flow.subscriptions(reader).first?["expiresAt"] as? String
        #expect(expires == "2026-05-10T00:00:00.000Z")
    }

    @Test func v1WithAWrongSecretIs401AndStoresNothing() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production)
        let answer = try flow.notify(try flow.simulator.notificationV1(FlowFixtures.production, type: "REFUND", password: "guess"))
        #expect(answer.status == 401)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
    }

    @Test(arguments: [#"{"notification_type": 7}"#, #"{"notification_type": "DID_RENEW", "password": "#, "[]", #"{"neither": 1}"#,
                      #"{"signedPayload": "not a JWS"}"#, #"{"signedPayload": "a.b.c"}"#])
    func malformedNotificationIs400(_ body: String) throws {
        let flow = try AppStoreFlow()
        let answer = try flow.notify(Data(body.utf8))
        #expect(answer.status == 400)
        #expect(answer.errorCode == "bad_request")
    }

    @Test func refundByV1NotificationTakesTheIssueAwayAtOnce() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        #expect(try flow.tokenStatus(reader, issue: "2026-03").status == 200)
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        let answer = try flow.notify(try flow.simulator.notificationV1(FlowFixtures.production, type: "REFUND"))
        #expect(answer.status == 200)
        // E6: the refunded period (2026-03-10 → 04-10) never happened; March was published inside it.
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        let token = try flow.tokenStatus(reader, issue: "2026-03")
        #expect(token.status == 403)
        #expect(token.errorCode == "not_entitled")
        #expect(try flow.tokenStatus(reader, issue: "2026-02").status == 200)
    }

    @Test func refundByV2NotificationTakesTheIssueAwayAtOnce() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        let body = try flow.simulator.notificationV2(FlowFixtures.production, type: "REFUND", transactionId: "10002")
        let answer = try flow.notify(body)
        #expect(answer.status == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        let token = try flow.tokenStatus(reader, issue: "2026-03")
        #expect(token.status == 403)
        #expect(token.errorCode == "not_entitled")
    }

    @Test func v2IsDeduplicatedByNotificationUUID() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        let body = try flow.simulator.notificationV2(FlowFixtures.production, type: "DID_RENEW", notificationUUID: "dedupe-me")
        let counters = flow.runtime.core.counters
        #expect(try flow.notify(body).status == 200)
        #expect(try flow.notify(body).status == 200)
        #expect(counters.notificationsTaken.value == 1)
        #expect(counters.notificationsDuplicate.value == 1)
        #expect(try flow.storedTransactionIds(reader) == ["10000", "10001", "10002"])
    }

    /// How many write units of work are still to fail.
    final class Countdown: Sendable { let remaining = Mutex(0) }

    /// Every write unit of work fails busy while the countdown is above zero.
    final class BusyWrites: GatewayStore {
        private let base: any GatewayStore
        private let failures: Countdown

        init(_ base: any GatewayStore, failures: Countdown) { self.base = base; self.failures = failures }

        func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R { try base.read(body) }

        func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
            let fail = failures.remaining.withLock { remaining in
                defer { remaining = max(0, remaining - 1) }
                return remaining > 0
            }
            if fail { throw .busy }
            return try base.write(body)
        }
    }

    /// http-api.md: a V2 notification is 200 only once its facts are stored; storage busy is a
    /// 503 so that Apple retries, and the retry is taken.
    @Test func v2WhoseFactsCouldNotBeStoredIs503AndItsRetryIsTaken() throws {
        let failures = Countdown()
        let flow = try AppStoreFlow(wrapStore: { BusyWrites($0, failures: failures) })
        let reader = try flow.subscribedReader()
        try flow.simulator.addTransaction(FlowFixtures.renewal, to: FlowFixtures.production)
        let body = try flow.simulator.notificationV2(FlowFixtures.production, type: "DID_RENEW", transactionId: "10003",
                                                     notificationUUID: "retry-me")
        let counters = flow.runtime.core.counters
        failures.remaining.withLock { $0 = 1 }
        let refused = try flow.notify(body)
        #expect(refused.status == 503)
        #expect(refused.errorCode == "storage_busy")
        #expect(counters.notificationsTaken.value == 0)
        #expect(try flow.storedTransactionIds(reader) == ["10000", "10001", "10002"])
        let retried = try flow.notify(body)
        #expect(retried.status == 200)
        #expect(counters.notificationsTaken.value == 1)
        #expect(counters.notificationsDuplicate.value == 0)
        #expect(try flow.storedTransactionIds(reader) == ["10000", "10001", "10002", "10003"])
    }

    @Test func v2WithABadSignatureIs401AndStoresNothing() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production)
        let body = try flow.simulator.notificationV2(FlowFixtures.production, type: "REFUND", transactionId: "10002")
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: String])
        let forged = try JSONSerialization.data(withJSONObject: ["signedPayload": SignedDataTampering.flipSignature(object["signedPayload"]!)])
        let answer = try flow.notify(forged)
        #expect(answer.status == 401)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
    }

    @Test func v2SignedByAnotherCAIs401() throws {
        let flow = try AppStoreFlow()
        let stranger = try AppStoreSimulator(script: FlowFixtures.script,
                                             authority: TestCertificateAuthority(options: .init(issuedAt: FlowFixtures.at("2025-06-01T00:00:00Z"))),
                                             clock: flow.clock.now)
        let answer = try flow.notify(try stranger.notificationV2(FlowFixtures.production, type: "DID_RENEW"))
        #expect(answer.status == 401)
        #expect(flow.runtime.core.counters.notificationsTaken.value == 0)
        // The project's sentence, never libcrypto's reason ("unable to get local issuer certificate").
        let message = (answer.json["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("does not lead to a configured Apple root"), "\(message)")
        #expect(!message.contains("issuer certificate") && !message.contains("untrustedChain"), "\(message)")
    }

    @Test func simulatorDeliversANotificationThroughItsControlRoute() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        let gateway = try #require(URL(string: "http://127.0.0.1:\(flow.port)/v1/appstore/notifications"))
        let request = SimulatorControl.Notify(gateway: gateway, receipt: FlowFixtures.production, version: 2, type: "REFUND",
                                              transactionId: "10002")
        let answer = try NotificationPoster.post(request.body, to: flow.apple.baseURL.appendingPathComponent("simulator/notifications"))
        let result = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        #expect(answer.status == 200)
        #expect(result["gatewayStatus"] as? Int == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }
}

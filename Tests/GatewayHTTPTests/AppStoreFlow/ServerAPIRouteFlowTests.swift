import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import Synchronization
import Testing
import Wire
import GatewayTesting

/// The App Store Server API routes and the notification backfill against the simulator over HTTP: nothing
/// lost (a dropped notification is recovered), a reader's refresh, the operator's test
/// notification and renewal date extension; without credentials they answer 409 and the
/// refresh re-verifies stored receipts, as before.
@Suite struct ServerAPIRouteFlowTests {
    private func subscribedReader(_ flow: AppStoreFlow) throws -> AppStoreFlow.Reader {
        let reader = try flow.newReader()
        let latest = try #require(try flow.simulator.signedTransactions(FlowFixtures.production).last)
        try #require(try flow.sendSignedTransactions([latest], for: reader).status == 200)
        try #require(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        return reader
    }

    @Test func aNotificationTheSimulatorDroppedIsRecoveredByTheBackfill() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try subscribedReader(flow)
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        try flow.simulator.sendNotification(FlowFixtures.production, type: "REFUND", transactionId: "10002", drop: true)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"], "nothing arrived")
        let backfill = try #require(flow.runtime.backfill)
        #expect(backfill.pass())
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(flow.runtime.core.counters.backfillReplayed.value == 1)
        #expect(try flow.store.serviceMark(NotificationBackfill.markName) == FlowFixtures.now)
        #expect(backfill.pass())
        #expect(flow.runtime.core.counters.backfillReplayed.value == 1, "deduplicated by notificationUUID")
    }

    @Test func theBackfillOfAnAppNeverReleasedReplaysTheSandbox() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        flow.simulator.configureServerAPI { $0.neverReleased = true }
        let reader = try flow.newReader()
        let latest = try #require(try flow.simulator.signedTransactions(FlowFixtures.sandbox).last)
        try #require(try flow.sendSignedTransactions([latest], for: reader).status == 200)
        try #require(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        try flow.simulator.refund(transactionId: "20002", in: FlowFixtures.sandbox, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        try flow.simulator.sendNotification(FlowFixtures.sandbox, type: "REFUND", transactionId: "20002", drop: true)
        #expect(try #require(flow.runtime.backfill).pass(), "production's bare 401 is no failure when the sandbox answers")
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(try flow.store.serviceMark(NotificationBackfill.markName) == FlowFixtures.now)
    }

    /// A replayed notification that could not be stored (storage busy: it may pass) leaves the
    /// pass unfinished: the mark does not move, and the next pass takes the notification.
    @Test func aBackfillPassWhoseNotificationCouldNotBeStoredIsNotASuccess() throws {
        let failures = NotificationFlowTests.Countdown()
        let flow = try AppStoreFlow(serverAPI: true, wrapStore: { NotificationFlowTests.BusyWrites($0, failures: failures) })
        let reader = try subscribedReader(flow)
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        try flow.simulator.sendNotification(FlowFixtures.production, type: "REFUND", transactionId: "10002", drop: true)
        let backfill = try #require(flow.runtime.backfill)
        failures.remaining.withLock { $0 = 100 }
        #expect(!backfill.pass())
        #expect(try flow.store.serviceMark(NotificationBackfill.markName) == nil)
        failures.remaining.withLock { $0 = 0 }
        #expect(backfill.pass())
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }

    @Test func backfillRouteReplaysAChosenWindow() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try subscribedReader(flow)
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        try flow.simulator.sendNotification(FlowFixtures.production, type: "REFUND", transactionId: "10002", drop: true)
        let answer = try flow.post("/v1/appstore/backfill", json: ["start": "2026-03-19T00:00:00Z", "end": "2026-03-21T00:00:00Z",
                                                                   "onlyFailures": true])
        #expect(answer.status == 202)
        #expect(answer.json["onlyFailures"] as? Bool == true)
        #expect(try #require(flow.runtime.backfill).waitForRequests(1, timeout: .seconds(10)))
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(try flow.post("/v1/appstore/backfill", json: ["start": "2026-03-21T00:00:00Z", "end": "2026-03-19T00:00:00Z"]).status == 400)
        #expect(try flow.post("/v1/appstore/backfill", json: ["start": "2025-01-01T00:00:00Z", "end": "2026-03-19T00:00:00Z"]).status == 400)
        let future = try flow.post("/v1/appstore/backfill", json: ["start": "2027-01-01T00:00:00Z", "end": "2027-02-01T00:00:00Z"])
        #expect(future.status == 400 && future.text.contains("earlier than now"))
        let empty = try flow.post("/v1/appstore/backfill", json: ["start": flow.clock.now().rfc3339, "end": "2027-02-01T00:00:00Z"])
        #expect(empty.status == 400 && empty.text.contains("earlier than now"), "a window cut to [now, now) replays nothing")
        #expect(try flow.post("/v1/appstore/backfill", json: ["start": "2026-03-19T00:00:00Z", "end": "2026-03-20T00:00:00Z"],
                              bearer: reader.token).status == 403)
    }

    @Test func refreshAsksAppleNow() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try subscribedReader(flow)
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        let answer = try flow.post("/v1/accounts/\(reader.id)/refresh", json: [:], bearer: reader.token)
        #expect(answer.status == 200)
        #expect((answer.json["subscriptions"] as? [[String: Any]])?.first?["state"] as? String == "revoked")
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }

    /// Apple's Retry-After is a UNIX time in milliseconds, ahead by more than the client's
    /// deadline: the refresh gives up and the client is told to wait that long, in seconds, at
    /// most an hour.
    @Test(arguments: [(Int64(120_000), "120"), (20_000_000, "3600")])
    func applesRateLimitWaitIsPassedOnInSeconds(appleWaitMilliseconds: Int64, retryAfter: String) throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try subscribedReader(flow)
        flow.simulator.configureServerAPI { $0.rateLimitedRequests = 100; $0.retryAfterMilliseconds = appleWaitMilliseconds }
        let answer = try flow.post("/v1/accounts/\(reader.id)/refresh", json: [:], bearer: reader.token)
        #expect(answer.status == 503)
        #expect(answer.errorCode == "app_store_unavailable")
        #expect(answer.header("Retry-After") == retryAfter, "\(answer.headers) \(answer.text)")
    }

    @Test func aRefreshAfterTheWholeHistoryAsksForRefundsNotTheHistoryAgain() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try subscribedReader(flow)
        #expect(flow.runtime.core.counters.historiesFetched.value == 1)
        // A refund of an older period that no notification reported, and statuses do not show
        // (they carry the newest transaction only).
        try flow.simulator.refund(transactionId: "10000", in: FlowFixtures.production, at: FlowFixtures.at("2026-01-20T00:00:00Z"))
        #expect(try flow.post("/v1/accounts/\(reader.id)/refresh", json: [:], bearer: reader.token).status == 200)
        let refunded = try flow.store.accountFacts(reader.id).transactions.first { $0.transactionId == "10000" }
        #expect(refunded?.revocationDate == FlowFixtures.at("2026-01-20T00:00:00Z"), "found by the refund lookup")
        #expect(flow.serverAPIRequests["refunds"] == 1)
        #expect(flow.serverAPIRequests["history"] == 1, "the history was walked once, at the post, not again")
    }

    @Test func refreshesAreLimitedPerAccount() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try subscribedReader(flow)
        let other = try flow.newReader()
        for _ in 0..<3 { #expect(try flow.post("/v1/accounts/\(reader.id)/refresh", json: [:], bearer: reader.token).status == 200) }
        let limited = try flow.post("/v1/accounts/\(reader.id)/refresh", json: [:], bearer: reader.token)
        #expect(limited.status == 429)
        #expect(limited.errorCode == "rate_limited")
        #expect(Int(limited.header("Retry-After") ?? "").map(RetryAfter.range.contains) == true)
        #expect(try flow.post("/v1/accounts/\(other.id)/refresh", json: [:], bearer: other.token).status == 200)
    }

    @Test func aTestNotificationComesBackThroughTheSandboxOfAnAppNeverReleased() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        flow.simulator.configureServerAPI { $0.neverReleased = true }
        let answer = try flow.post("/v1/appstore/test-notification", json: [:])
        #expect(answer.status == 200)
        #expect((answer.json["testNotificationToken"] as? String)?.isEmpty == false)
        #expect(flow.simulator.waitForDeliveryAttempts(1, timeout: 10))
        #expect(flow.simulator.sentNotifications.map(\.type) == ["TEST"])
        #expect(flow.simulator.sentNotifications.first?.failed == false, "the gateway answered 2xx")
        let metrics = try flow.call("GET", "/metrics", bearer: nil)
        #expect(metrics.text.contains(#"issue_gateway_appstore_notifications_by_type_total{type="TEST"} 1"#))
    }

    @Test func anExtensionMovesTheRenewalDateAndNamesTheOwner() throws {
        let flow = try AppStoreFlow(serverAPI: true)
        let reader = try subscribedReader(flow)
        let answer = try flow.post("/v1/appstore/subscriptions/10000/extend", json: ["days": 7, "reasonCode": 1, "note": "missed issue"])
        #expect(answer.status == 200)
        #expect(answer.json["success"] as? Bool == true)
        #expect(answer.json["accountId"] as? String == reader.id)
        #expect(try flow.subscriptions(reader).first?["expiresAt"] as? String == "2026-04-17T00:00:00.000Z")
        // Recorded in the account's history (http-api.md), as the operator's action; the new
        // status came from the Server API.
        let history = try flow.call("GET", "/v1/accounts/\(reader.id)/history")  // support staff's view: the note too
        let events = history.json["events"] as? [[String: Any]] ?? []
        let action = try #require(events.last { $0["kind"] as? String == "operatorAction" })
        #expect(action["source"] as? String == "admin" && action["action"] as? String == "extendRenewalDate")
        #expect(action["days"] as? Int == 7 && action["note"] as? String == "missed issue")
        #expect(events.contains { $0["kind"] as? String == "transactionChanged" && $0["source"] as? String == "serverApi" })
        #expect(try flow.post("/v1/appstore/subscriptions/10000/extend", json: ["days": 91, "reasonCode": 1]).status == 400)
        #expect(try flow.post("/v1/appstore/subscriptions/10000/extend",
                              json: ["days": 1, "reasonCode": 1, "requestIdentifier": "not-a-uuid"]).status == 400)
        #expect(try flow.post("/v1/appstore/subscriptions/99999/extend", json: ["days": 1, "reasonCode": 1]).status == 404)
    }

    @Test func withoutCredentialsAppleOnlyRoutesAre409AndRefreshReverifiesReceipts() throws {
        let flow = try AppStoreFlow()
        #expect(flow.runtime.backfill == nil)
        let notConfigured = try flow.post("/v1/appstore/test-notification", json: [:])
        #expect(notConfigured.status == 409)
        #expect(notConfigured.errorCode == "not_configured")
        #expect(try flow.post("/v1/appstore/backfill", json: ["start": "2026-03-19T00:00:00Z", "end": "2026-03-20T00:00:00Z"]).status == 409)
        #expect(try flow.post("/v1/appstore/subscriptions/10000/extend", json: ["days": 1, "reasonCode": 1]).status == 409)
        let reader = try flow.subscribedReader()
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        #expect(try flow.post("/v1/accounts/\(reader.id)/refresh", json: [:], bearer: reader.token).status == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }
}

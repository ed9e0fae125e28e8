import Foundation
@testable import GatewayConfiguration
import GatewayStore
import IssueCatalog
import GatewayPush
import Lifecycle
import TestSupport
import Testing
import Wire
import GatewayTesting

/// The push services as `issue-gateway serve` runs them (their own threads), against the fake APNs
/// and a webhook receiver: an issue published at once and a scheduled one each reach every device
/// once, and the publisher's backend hears of both.
@Suite(.tags(.integration, .apns), .serialized) struct PushServicesFlowTests {
    @Test func publishedAndScheduledIssuesReachDevicesOnceThroughTheRunningServices() throws {
        let key = try APNsTestKey()
        let fake = try FakeAPNs(key: key, keyId: H.apnsKeyId, teamId: H.apnsTeamId, topic: H.apnsTopic)
        defer { fake.stop() }
        let receiver = try LocalHTTPListener { _ in .respond(status: 200, body: Data()) }
        defer { receiver.stop() }
        let h = try H.withPushes(apnsKeyPath: key.path, apnsURL: fake.url, caFile: fake.caFile,
                                 webhookURL: receiver.url("/hooks").absoluteString)
        let deliverers = PushSettings().webhookConcurrency
        #expect(h.runtime.pushServices.count == deliverers + 2, "webhook deliverers, pushes, publication events")
        #expect(h.runtime.pushServices.filter { $0 is WebhookDeliverer }.count == deliverers)
        let group = ServiceGroup(h.runtime.pushServices)
        try group.start()
        defer { group.stop() }
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)  // monthly.1m until 2026-03-15
        let phone = try h.registerDevice(reader, 7)
        let store = h.runtime.core.store

        let now = H.issueBody(id: "2026-03", publishedAt: "2026-03-01T00:00:00Z", paths: ["/content/monthly/2026-03/issue.pdf"])
        let soon = H.issueBody(id: "2026-03b", publishedAt: "2026-03-01T00:00:30Z", paths: ["/content/monthly/2026-03b/issue.pdf"])
        #expect(try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: now).status == 201)
        #expect(try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: soon).status == 201)
        func pushed(_ issue: String) -> [FakeAPNs.Record] { fake.records.filter { $0.token == phone && $0.issueId == issue } }
        #expect(eventually(seconds: 10) { pushed("2026-03").count == 1 }, "published at once: pushed")
        #expect(try !store.isAnnounced(IssueRef(publicationId: "monthly", issueId: "2026-03b")), "not before its time")
        h.clock.advance(seconds: 31)
        #expect(eventually(seconds: 10) { pushed("2026-03b").count == 1 }, "pushed when its time came")
        #expect(eventually(seconds: 10) { (try? store.openPushJobs().isEmpty) == true })
        #expect(eventually(seconds: 10) { (try? store.outboxLength()) == 0 })
        // Every event was answered 2xx, so the receiver has recorded each.
        let ids = receiver.requests.compactMap { request -> String? in
            (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any])?["id"] as? String
        }
        #expect(Set(ids).isSuperset(of: ["issue.published/monthly/2026-03", "issue.published/monthly/2026-03b"]))
        // Every job is finished and every event delivered: each issue went once.
        #expect(pushed("2026-03").count == 1 && pushed("2026-03b").count == 1)
        #expect(fake.records.allSatisfy { $0.problem == nil && $0.http == "2" })
    }
}

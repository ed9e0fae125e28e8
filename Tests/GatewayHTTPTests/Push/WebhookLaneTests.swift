import Foundation
@testable import GatewayConfiguration
@testable import GatewayPush
import GatewayStore
import Synchronization
import TestSupport
import Testing
import GatewayTesting

/// Webhooks in order per account only (http-api.md, pushes and webhooks): a receiver that fails
/// for one account holds back that account's later events and nobody else's; an event failing
/// for the configured time is dead-lettered, listed for the admin and replayable.
@Suite struct WebhookLaneTests {
    typealias Delivery = WebhookDeliveryTests

    /// A gateway whose catalog is seeded and whose outbox holds, after the three issue.published
    /// events, two events of `failing` and one of each of `others`, in that order.
    private func outbox(_ h: H, failing: String, others: [String]) throws {
        for (index, account) in ([failing] + others + [failing]).enumerated() {
            let body = Delivery.grantBody.replacingOccurrences(of: "X", with: "g\(index)")
            #expect(try h.client.post("/v1/accounts/\(account)/grants", as: H.adminKey, json: body).status == 201)
        }
    }

    @Test func aReceiverFailingForOneAccountDelaysOnlyThatAccountsEvents() throws {
        let h = try Delivery.harness()
        try h.seedCatalog()
        let store = h.runtime.core.store
        let alice = try h.createAccount(), bob = try h.createAccount(), carol = try h.createAccount()
        try outbox(h, failing: alice.id, others: [bob.id, carol.id])
        let aliceEvents = try store.outboxEvents(limit: 100).filter { $0.accountId == alice.id }.map(\.eventId)
        try #require(aliceEvents.count == 2)

        let aliceDown = Atomic<Bool>(true)
        let receiver = try LocalHTTPListener { request in
            let event = Delivery.event(request)
            let refuse = event.account == alice.id && aliceDown.load(ordering: .relaxed)
            return .respond(status: refuse ? 500 : 204, body: Data())
        }
        defer { receiver.stop() }
        let deliverer = try Delivery.deliverer(store, receiver, h)
        try deliverer.start()
        defer { deliverer.stop(); deliverer.join() }

        // Everyone else's five events go while alice's first keeps failing.
        #expect(eventually(seconds: 10) { (try? store.outboxEvents(limit: 100).map(\.eventId)) == aliceEvents })
        #expect(eventually(seconds: 10) {
            receiver.requests.filter { Delivery.event($0).id == aliceEvents[0] }.count >= 3
        })
        let tried = receiver.requests.map { Delivery.event($0).id }
        #expect(!tried.contains(aliceEvents[1]), "alice's later event waits behind her first")
        #expect(Set(tried).count == 6, "the five others delivered, alice's first tried")

        // Alice's receiver recovers: her two events arrive, in order.
        aliceDown.store(false, ordering: .relaxed)
        #expect(eventually(seconds: 10) { (try? store.outboxLength()) == 0 })
        let accepted = receiver.requests.map { Delivery.event($0) }.filter { $0.account == alice.id }
        #expect(accepted.last?.id == aliceEvents[1])
        #expect(accepted.dropLast().allSatisfy { $0.id == aliceEvents[0] }, "her second only after her first was taken")
        #expect(receiver.requests.allSatisfy(Delivery.signatureIsValid))
    }

    @Test func anEventFailingForTheConfiguredTimeIsDeadLetteredListedAndReplayable() throws {
        let h = try Delivery.harness()
        try h.seedCatalog()
        let store = h.runtime.core.store
        let alice = try h.createAccount(), bob = try h.createAccount()
        try outbox(h, failing: alice.id, others: [bob.id])
        let aliceEvents = try store.outboxEvents(limit: 100).filter { $0.accountId == alice.id }.map(\.eventId)
        try #require(aliceEvents.count == 2)

        // The receiver refuses alice's first event only, until it is fixed.
        let fixed = Atomic<Bool>(false)
        let receiver = try LocalHTTPListener { request in
            let refuse = Delivery.event(request).id == aliceEvents[0] && !fixed.load(ordering: .relaxed)
            return .respond(status: refuse ? 500 : 204, body: Data())
        }
        defer { receiver.stop() }
        let deliverer = try Delivery.deliverer(store, receiver, h) { $0.deadLetterAfter = .milliseconds(300) }
        try deliverer.start()
        defer { deliverer.stop(); deliverer.join() }

        // Set aside, so alice's later event goes; the outbox is then empty, the dead letter kept.
        #expect(eventually(seconds: 10) { (try? store.outboxLength()) == 0 })
        let dead = try store.deadLetters(limit: 10)
        #expect(dead.map(\.eventId) == [aliceEvents[0]])
        #expect(dead.first?.lastFailure == "HTTP 500")
        #expect(receiver.requests.contains { Delivery.event($0).id == aliceEvents[1] })

        // The admin sees it and replays it; other keys may not.
        #expect(try h.client.get("/v1/webhooks/dead-letters", as: alice.token).status == 403)
        let listed = try h.client.get("/v1/webhooks/dead-letters", as: H.adminKey)
        #expect(listed.status == 200)
        let events = try #require(listed.json["events"] as? [[String: Any]])
        #expect(events.map { $0["id"] as? String } == [aliceEvents[0]])
        #expect(events.first?["accountId"] as? String == alice.id)
        #expect(events.first?["lastFailure"] as? String == "HTTP 500")
        let seq = try #require(events.first?["seq"] as? Int)
        #expect(try h.client.post("/v1/webhooks/dead-letters/999999/replay", as: H.adminKey, json: "{}").status == 404)
        #expect(try h.client.post("/v1/webhooks/dead-letters/x/replay", as: H.adminKey, json: "{}").status == 400)

        fixed.store(true, ordering: .relaxed)
        let replayed = try h.client.post("/v1/webhooks/dead-letters/\(seq)/replay", as: H.adminKey, json: "{}")
        #expect(replayed.status == 200)
        #expect(replayed.json["deadLetteredAt"] is NSNull)
        #expect(eventually(seconds: 10) {
            receiver.requests.last.map { Delivery.event($0).id } == aliceEvents[0] && (try? store.outboxLength()) == 0
        })
        #expect(try store.deadLetters(limit: 10).isEmpty)
        #expect(try h.client.post("/v1/webhooks/dead-letters/\(seq)/replay", as: H.adminKey, json: "{}").status == 404,
                "delivered: nothing left to replay")
    }
}

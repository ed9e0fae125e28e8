import Foundation
import GooglePlaySimulator
import TestSupport
import Testing
import Wire
import GatewayTesting

/// Against Google's real Pub/Sub emulator: a push subscription delivers a notification to the
/// gateway (the emulator does not sign pushes, so a relay in front of the gateway adds the OIDC
/// token Google's push service would), a 503 once makes it deliver again and the facts are stored
/// once; a pull subscription is drained by the gateway's puller, each message acknowledged after
/// its facts are stored.
@Suite(.tags(.integration, .emulator), .serialized, .enabled(if: PubSubEmulator.unavailableReason == nil,
                              Comment(rawValue: PubSubEmulator.unavailableReason ?? "")))
struct PubSubEmulatorTests {
    static let uuid = "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d"

    /// Waits for `condition`, asking again every 100 ms, at most `timeout`.
    func eventually(_ timeout: TimeInterval = 60, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try condition()
    }

    @Test func aPushIsDeliveredAgainAfterA503AndStoredOnce() throws {
        let emulator = try PubSubEmulator()
        let g = try GooglePlayGateway()
        let created = try g.h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(Self.uuid)"}"#)
        let reader = (id: try #require(created.json["accountId"] as? String), token: try #require(created.json["accountToken"] as? String))
        let client = g.h.client, simulator = g.simulator
        let relay = try LocalHTTPListener { request in
            let answer = try? client.send("POST", "/v1/googleplay/notifications",
                                          headers: [("Authorization", "Bearer " + simulator.pushToken(audience: GooglePlayGateway.audience))],
                                          body: Array(request.body))
            return .respond(status: answer?.status ?? 502, body: Data(answer?.body ?? []))
        }
        defer { relay.stop() }
        try emulator.createTopic("rtdn-push")
        try emulator.createSubscription("gateway-push", topic: "rtdn-push", pushEndpoint: relay.url("/push").absoluteString)
        let bought = try g.simulator.buy(token: "tok-push", productId: "basic", account: Self.uuid)
        g.simulator.failNextCalls(4, status: 500)                               // the first delivery: 503
        try emulator.publish("rtdn-push", data: bought.data)
        #expect(try eventually { try g.entitled(reader) == ["p1"] })
        #expect(relay.requests.count >= 2, "delivered again after the 503")
        let history = try g.h.client.get("/v1/accounts/\(reader.id)/history", as: reader.token)
        #expect(history.objects("events").filter { $0["kind"] as? String == "transactionSeen" }.count == 1)
    }

    @Test func aPullSubscriptionIsDrainedAndEachMessageStoredOnce() throws {
        let emulator = try PubSubEmulator()
        let subscription = "projects/\(PubSubEmulator.project)/subscriptions/gateway-pull"
        let g = try GooglePlayGateway { c in
            c.googlePlay.pullSubscription = subscription
            c.googlePlay.pubSubURL = emulator.url
            c.googlePlay.pubSubEmulator = true
        }
        let puller = try #require(g.h.runtime.core.intake.puller)
        let created = try g.h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(Self.uuid)"}"#)
        let reader = (id: try #require(created.json["accountId"] as? String), token: try #require(created.json["accountToken"] as? String))
        try emulator.createTopic("rtdn-pull")
        try emulator.createSubscription("gateway-pull", topic: "rtdn-pull", pushEndpoint: nil)
        let bought = try g.simulator.buy(token: "tok-pull", productId: "basic", account: Self.uuid)
        try emulator.publish("rtdn-pull", data: bought.data)
        g.advance(days: 30)
        try emulator.publish("rtdn-pull", data: try g.simulator.renew("tok-pull").data)
        var taken = 0
        #expect(eventually { taken += puller.pass(); return taken == 2 })
        g.advance(days: 16)
        #expect(try g.entitled(reader) == ["p1", "p2", "p3"])
        // Acknowledged: nothing is delivered again.
        #expect(puller.pass() == 0)
    }
}

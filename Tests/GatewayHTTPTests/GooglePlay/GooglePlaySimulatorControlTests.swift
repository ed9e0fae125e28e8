import Foundation
import GooglePlaySimulator
import Testing
import Wire
import GatewayTesting

/// The googleplay-simulator's control routes on a real socket, pushing to a gateway on a real
/// socket: each step's notification is delivered with Google's OIDC token and the step answers
/// what the gateway said. The reader's app set `obfuscatedAccountId`, so pushes alone entitle.
@Suite struct GooglePlaySimulatorControlTests {
    static let uuid = "3c1e9b7a-2d4f-4a8b-9c0d-1e2f3a4b5c6d"

    /// A socket gateway, a reader with the app account token, and a client of the simulator.
    func setUp() throws -> (GooglePlayGateway, (id: String, token: String), APIClient) {
        let g = try GooglePlayGateway(transport: .socket)
        let created = try g.h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(Self.uuid)"}"#)
        let reader = (id: try #require(created.json["accountId"] as? String), token: try #require(created.json["accountToken"] as? String))
        return (g, reader, APIClient(port: g.server.port))
    }

    /// `POST /simulator/steps/{name}`.
    func step(_ sim: APIClient, _ name: String, _ json: String) throws -> APIResponse {
        try sim.post("/simulator/steps/\(name)", json: json)
    }

    /// A step that must be pushed and taken by the gateway.
    @discardableResult
    func taken(_ sim: APIClient, _ name: String, _ json: String) throws -> APIResponse {
        let answer = try step(sim, name, json)
        guard answer.status == 200, answer.json["delivery"] as? String == "pushed", answer.json["gatewayStatus"] as? Int == 200,
              (answer.json["gatewayBody"] as? String)?.contains(#""taken""#) == true else {
            throw HarnessError.unexpected("\(name) answered \(answer.status): \(answer.text)")
        }
        return answer
    }

    /// Both clocks, the simulator's through its clock route.
    func advance(_ g: GooglePlayGateway, _ sim: APIClient, days: Int64) throws {
        let moved = try sim.post("/simulator/clock", json: #"{"advanceDays":\#(days)}"#)
        guard moved.status == 200 else { throw HarnessError.unexpected(moved.text) }
        g.h.clock.advance(seconds: days * 86_400)
    }

    @Test func buyRenewRefundThroughTheControlRoutes() throws {
        let (g, reader, sim) = try setUp()
        let bought = try taken(sim, "buy", #"{"token":"tok-1","productId":"basic","account":"\#(Self.uuid)"}"#)
        let notification = try #require(bought.json["notification"] as? [String: Any])
        let rtdn = try #require(notification["subscriptionNotification"] as? [String: Any])
        #expect(rtdn["notificationType"] as? Int == 4 && rtdn["purchaseToken"] as? String == "tok-1")
        #expect(bought.json["messageId"] as? String != nil)
        #expect(try g.entitled(reader) == ["p1"])
        try advance(g, sim, days: 30)
        let renewed = try taken(sim, "renew", #"{"token":"tok-1"}"#)
        let orders = try #require((renewed.json["purchase"] as? [String: Any])?["orderIds"] as? [String])
        #expect(orders.count == 2)
        try advance(g, sim, days: 20)                                           // April 20th
        #expect(try g.entitled(reader) == ["p1", "p2", "p3"])
        // E24: the renewal's order refunded (named by the token: its latest order) is never bought.
        let refunded = try taken(sim, "refund", #"{"token":"tok-1"}"#)
        let voided = try #require((refunded.json["notification"] as? [String: Any])?["voidedPurchaseNotification"] as? [String: Any])
        #expect(voided["orderId"] as? String == orders.last)
        #expect(g.simulator.order(try #require(orders.last))?.state == "REFUNDED")
        #expect(try g.entitled(reader) == ["p1", "p2"])
    }

    @Test func e25AnUpgradeWithALinkAndAResubscribeWithoutOne() throws {
        let (g, reader, sim) = try setUp()
        let account = #""account":"\#(Self.uuid)""#
        try taken(sim, "buy", #"{"token":"tok-a","productId":"basic",\#(account)}"#)
        try advance(g, sim, days: 10)
        let upgraded = try taken(sim, "upgrade", #"{"token":"tok-b","productId":"premium","linkedToken":"tok-a",\#(account)}"#)
        #expect((upgraded.json["purchase"] as? [String: Any])?["linkedPurchaseToken"] as? String == "tok-a")
        let chain = try g.subscriptions(reader)
        #expect(chain.count == 1 && chain.first?["originalTransactionId"] as? String == "tok-a", "\(chain)")
        #expect(chain.first?["productId"] as? String == "premium")
        // A resubscribe needs the old token expired: before, Google would link it.
        let early = try step(sim, "resubscribe", #"{"token":"tok-c","productId":"basic","previousToken":"tok-b"}"#)
        #expect(early.status == 400, "\(early.text)")
        try advance(g, sim, days: 30)
        try taken(sim, "expire", #"{"token":"tok-b"}"#)
        try advance(g, sim, days: 21)                                           // May 1st
        try taken(sim, "resubscribe", #"{"token":"tok-c","productId":"basic","previousToken":"tok-b",\#(account)}"#)
        #expect(g.simulator.subscription("tok-c")?.linkedPurchaseToken == nil)
        try advance(g, sim, days: 20)
        // p3 (April 15th) fell in the gap; each other issue is entitled once, by two chains.
        #expect(try g.entitled(reader) == ["p1", "p2", "p4b", "p5"])
        #expect(Set(try g.subscriptions(reader).compactMap { $0["originalTransactionId"] as? String }) == ["tok-a", "tok-c"])
    }

    @Test func oneTimePurchasesAndAPendingOneAbandoned() throws {
        let (g, reader, sim) = try setUp()
        try advance(g, sim, days: 20)                                           // March 21st
        let pending = try taken(sim, "buy-product",
                                #"{"token":"p-tok","productId":"issue_p2","pending":true,"account":"\#(Self.uuid)"}"#)
        #expect((pending.json["purchase"] as? [String: Any])?["purchaseState"] as? String == "pending")
        #expect(try g.entitled(reader).isEmpty)
        try taken(sim, "cancel-pending", #"{"token":"p-tok"}"#)
        #expect(try g.entitled(reader).isEmpty)
        let bought = try taken(sim, "buy-product", #"{"token":"i-tok","productId":"issue_p2","account":"\#(Self.uuid)"}"#)
        let rtdn = try #require((bought.json["notification"] as? [String: Any])?["oneTimeProductNotification"] as? [String: Any])
        #expect(rtdn["notificationType"] as? Int == 1 && rtdn["sku"] as? String == "issue_p2")
        #expect(try g.entitled(reader) == ["p2"])
        #expect(g.simulator.productPurchase("i-tok")?.acknowledged == true)
    }

    @Test func badStepsAre400AndUnknownTokens404AndChangeNothing() throws {
        let (g, _, sim) = try setUp()
        for (name, body) in [("teleport", #"{"token":"t"}"#), ("buy", "not json"), ("buy", "[]"),
                             ("buy", #"{"token":"t","productId":"basic","tokn":"x"}"#), ("buy", #"{"token":5,"productId":"basic"}"#),
                             ("buy", #"{"productId":"basic"}"#), ("buy", #"{"token":"","productId":"basic"}"#),
                             ("buy", #"{"token":"t","productId":"basic","periodDays":0}"#),
                             ("buy", #"{"token":"t","token":"u","productId":"basic"}"#), ("upgrade", #"{"token":"t","productId":"basic"}"#),
                             ("grace", #"{"token":"t"}"#), ("pause", #"{"token":"t","resumeAt":"next May"}"#),
                             ("refund", #"{"orderId":"GPA.1","token":"t"}"#), ("refund", "{}"), ("renew", #"{"token":"t","drop":"yes"}"#)] {
            let answer = try step(sim, name, body)
            #expect(answer.status == 400, "\(name) \(body): \(answer.text)")
            #expect((answer.json["error"] as? [String: Any])?["code"] as? String == "bad_request", "\(answer.text)")
        }
        for (name, body) in [("renew", #"{"token":"nobody"}"#), ("refund", #"{"orderId":"GPA.0000-0000-0000-00000"}"#),
                             ("upgrade", #"{"token":"t","productId":"premium","linkedToken":"nobody"}"#),
                             ("cancel-pending", #"{"token":"nobody"}"#), ("refund", #"{"token":"nobody"}"#)] {
            let answer = try step(sim, name, body)
            #expect(answer.status == 404, "\(name) \(body): \(answer.text)")
            #expect((answer.json["error"] as? [String: Any])?["code"] as? String == "not_found", "\(answer.text)")
        }
        // The control routes are not under Google's paths.
        let underGoogle = try sim.post("/androidpublisher/v3/applications/\(g.simulator.packageName)/simulator/steps/buy",
                                       json: #"{"token":"t","productId":"basic"}"#)
        #expect(underGoogle.status == 404)
        #expect(g.simulator.subscription("t") == nil)
        #expect(g.simulator.apiRequests.isEmpty)
    }

    @Test func aDroppedStepIsPlayedButNeverPushed() throws {
        let (g, reader, sim) = try setUp()
        let dropped = try step(sim, "buy", #"{"token":"tok-1","productId":"basic","account":"\#(Self.uuid)","drop":true}"#)
        #expect(dropped.status == 200 && dropped.json["delivery"] as? String == "dropped", "\(dropped.text)")
        #expect(dropped.json["gatewayStatus"] == nil)
        #expect(g.simulator.subscription("tok-1")?.state == "SUBSCRIPTION_STATE_ACTIVE")
        // The gateway never heard of it: it asked Google nothing and entitles nothing.
        #expect(g.simulator.apiRequests.isEmpty)
        #expect(try g.entitled(reader).isEmpty)
        // The next step's push makes the gateway look again, and it finds the purchase.
        try taken(sim, "cancel", #"{"token":"tok-1"}"#)
        #expect(try g.entitled(reader) == ["p1"])
    }

    @Test func theClockAndFailuresOnPurpose() throws {
        let (g, _, sim) = try setUp()
        let set = try sim.post("/simulator/clock", json: #"{"set":"2026-03-02T00:00:00Z"}"#)
        #expect(set.status == 200 && set.json["now"] as? String == "2026-03-02T00:00:00.000Z", "\(set.text)")
        #expect(try sim.get("/simulator/clock").json["now"] as? String == "2026-03-02T00:00:00.000Z")
        for body in [#"{"advanceDays":1,"set":"2026-03-02T00:00:00Z"}"#, "{}", #"{"advanceDays":-1}"#, #"{"advanceHours":1}"#] {
            #expect(try sim.post("/simulator/clock", json: body).status == 400, "\(body)")
        }
        g.h.clock.advance(seconds: 86_400)
        try taken(sim, "buy", #"{"token":"tok-1","productId":"basic","account":"\#(Self.uuid)"}"#)
        for body in ["{}", #"{"status":503}"#, #"{"calls":1,"status":200}"#, #"{"calls":-1}"#] {
            #expect(try sim.post("/simulator/failures", json: body).status == 400, "\(body)")
        }
        // As many failures as the gateway's client attempts (4): the gateway answers Pub/Sub 503.
        let failing = try sim.post("/simulator/failures", json: #"{"calls":4,"status":500}"#)
        #expect(failing.status == 200, "\(failing.text)")
        let renewed = try step(sim, "renew", #"{"token":"tok-1"}"#)
        #expect(renewed.status == 200 && renewed.json["delivery"] as? String == "pushed")
        #expect(renewed.json["gatewayStatus"] as? Int == 503, "\(renewed.text)")
        #expect(try sim.post("/simulator/failures", json: #"{"acknowledgements":2}"#).json["acknowledgementsStillFailing"] as? Int == 2)
        #expect(try sim.post("/simulator/failures", json: #"{"refuseOrders":"yes"}"#).status == 400)
    }

    @Test func e25WithTheOrdersAPIRefusedThroughTheFailuresRoute() throws {
        let (g, reader, sim) = try setUp()
        let refused = try sim.post("/simulator/failures", json: #"{"refuseOrders":true}"#)
        #expect(refused.status == 200 && refused.json["ordersRefused"] as? Bool == true, "\(refused.text)")
        try taken(sim, "buy", #"{"token":"tok-1","productId":"basic","account":"\#(Self.uuid)"}"#)
        try advance(g, sim, days: 30)
        try taken(sim, "renew", #"{"token":"tok-1"}"#)
        try advance(g, sim, days: 20)                                           // April 20th
        // The periods come from the subscription's snapshots: the gateway asked the Orders API and was refused.
        #expect(try g.entitled(reader) == ["p1", "p2", "p3"])
        #expect(g.simulator.apiRequests.contains { $0.hasPrefix("orders") })
        let answered = try sim.post("/simulator/failures", json: #"{"refuseOrders":false}"#)
        #expect(answered.json["ordersRefused"] as? Bool == false && !g.simulator.refusesOrders)
    }

    @Test func withoutAPushTargetAStepIsPlayedAndSaysSo() throws {
        let g = try GooglePlayGateway()
        let answer = try APIClient(port: g.server.port).post("/simulator/steps/buy", json: #"{"token":"tok-1","productId":"basic"}"#)
        #expect(answer.status == 200 && answer.json["delivery"] as? String == "noTarget", "\(answer.text)")
        #expect(g.simulator.subscription("tok-1") != nil)
    }
}

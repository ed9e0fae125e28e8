import Foundation
import GatewayCrypto
import GooglePlaySimulator
import Testing
import Wire
import GatewayTesting

/// `POST /v1/googleplay/notifications`: Pub/Sub pushes with Google's OIDC token, taken once per
/// message id after the facts Google answers are stored.
@Suite struct GooglePlayPushRouteTests {
    @Test func aPushStoresWhatGoogleAnswersOnceForItsMessageId() throws {
        let g = try GooglePlayGateway()
        let uuid = "0b9a2f1e-3c4d-4e5f-8a6b-7c8d9e0f1a2b"
        let created = try g.h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(uuid)"}"#)
        let reader = (id: try #require(created.json["accountId"] as? String), token: try #require(created.json["accountToken"] as? String))
        let bought = try g.simulator.buy(token: "tok-1", productId: "basic", account: uuid)
        let first = try g.push(bought)
        #expect(first.status == 200 && first.json["status"] as? String == "taken", "\(first.text)")
        #expect(try g.entitled(reader) == ["p1"])
        let again = try g.push(bought)
        #expect(again.status == 200 && again.json["status"] as? String == "duplicate")
        // A renewal: Google's notification only says "look again"; the new order is stored.
        g.advance(days: 30)
        let renewed = try g.simulator.renew("tok-1")
        #expect(try g.push(renewed).json["status"] as? String == "taken")
        g.advance(days: 20)
        #expect(try g.entitled(reader) == ["p1", "p2", "p3"])
        let history = try g.h.client.get("/v1/accounts/\(reader.id)/history", as: reader.token)
        #expect(history.objects("events").contains { $0["source"] as? String == "rtdn" }, "\(history.text)")
    }

    /// With the Orders API refusing (E25), a voided one-time purchase names no sku and its order
    /// cannot be asked: the purchase stored under that order says which product it was.
    @Test(arguments: [false, true])
    func e24AVoidedOrderIsNeverBought(ordersRefused: Bool) throws {
        let g = try GooglePlayGateway()
        g.simulator.refusesOrders = ordersRefused
        let reader = try g.h.createAccount()
        g.advance(days: 20)
        g.simulator.buyProduct(token: "issue-tok", productId: "issue_p2")
        #expect(try g.post(reader, productId: "issue_p2", token: "issue-tok").status == 200)
        #expect(try g.entitled(reader) == ["p2"])
        let orderId = try #require(g.simulator.productPurchase("issue-tok")?.orderId)
        let refund = try g.simulator.refund(orderId: orderId, chargeback: true)
        #expect(try g.push(refund).status == 200)
        #expect(try g.entitled(reader).isEmpty)
    }

    @Test func pushesWithoutGooglesTokenAreRefused() throws {
        let g = try GooglePlayGateway()
        let sim = g.simulator
        let bought = try sim.buy(token: "tok-1", productId: "basic")
        let stranger = try #require(RSAPrivateKey(generatingBits: 2048))
        let header = Base64URL.encode(Array(#"{"alg":"none","kid":"\#(sim.signingKeyId)"}"#.utf8))
        let claims = sim.pushToken(audience: GooglePlayGateway.audience).split(separator: ".")[1]
        for bearer in ["", "Bearer " + sim.pushToken(audience: "https://elsewhere.test/push"),
                       "Bearer " + sim.pushToken(audience: GooglePlayGateway.audience, email: "intruder@example.com"),
                       "Bearer " + sim.pushToken(audience: GooglePlayGateway.audience, issuedAt: sim.now.adding(seconds: -7200)),
                       "Bearer " + sim.pushToken(audience: GooglePlayGateway.audience, keyId: "unknown"),
                       "Bearer " + sim.pushToken(audience: GooglePlayGateway.audience, key: stranger),
                       "Bearer \(header).\(claims)."] {
            let answer = try g.push(bought, authorization: bearer)
            #expect(answer.status == 401, "\(bearer.prefix(40)): \(answer.text)")
        }
        #expect(sim.apiRequests.isEmpty)
    }

    @Test func malformedAndForeignPushesAre400() throws {
        let g = try GooglePlayGateway()
        let bearer = "Bearer " + g.simulator.pushToken(audience: GooglePlayGateway.audience)
        let foreignData = Data(#"{"version":"1.0","packageName":"com.other.app","eventTimeMillis":"1767225600000","testNotification":{"version":"1.0"}}"#.utf8)
        let foreign = #"{"message":{"data":"\#(foreignData.base64EncodedString())","messageId":"9"},"subscription":"s"}"#
        for body in [foreign, #"{"message":{"messageId":"1","data":"!!"}}"#, #"{"nothing":1}"#, "[]"] {
            let answer = try g.h.client.send("POST", "/v1/googleplay/notifications", headers: [("Authorization", bearer)],
                                             body: Array(body.utf8))
            #expect(answer.status == 400, "\(body): \(answer.text)")
        }
    }

    @Test func googleUnreachableAnswers503SoPubSubRedelivers() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        let bought = try g.simulator.buy(token: "tok-1", productId: "basic")
        #expect(try g.post(reader, productId: "basic", token: "tok-1").status == 200)
        g.advance(days: 30)
        let renewed = try g.simulator.renew("tok-1")
        // As many failures as the client's attempts (4): this push fails, the redelivery does not.
        g.simulator.failNextCalls(4, status: 500)
        #expect(try g.push(renewed).status == 503)
        // The redelivery is taken: the message id was not marked by the failed attempt.
        #expect(try g.push(renewed).json["status"] as? String == "taken")
        _ = bought
    }
}

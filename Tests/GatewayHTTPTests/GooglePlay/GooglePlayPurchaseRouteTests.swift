import Foundation
import GooglePlaySimulator
import Testing
import Wire
import GatewayTesting

/// `POST /v1/accounts/{id}/googleplay/purchases` end to end against the simulator (http-api.md,
/// googleplay.md; E2, E4, E14, E25, E28).
@Suite struct GooglePlayPurchaseRouteTests {
    @Test func e2APurchaseGoogleConfirmsEntitlesAndIsAcknowledged() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.simulator.buy(token: "tok-1", productId: "basic")
        let answer = try g.post(reader, productId: "basic", token: "tok-1")
        #expect(answer.status == 200, "\(answer.text)")
        let subscription = try #require(answer.objects("subscriptions").first)
        #expect(subscription["store"] as? String == "googlePlay" && subscription["originalTransactionId"] as? String == "tok-1")
        #expect(subscription["environment"] as? String == "production")
        // E13: the latest issue at the start (p1, February 15th) is unlocked at the purchase on March 1st.
        #expect(try g.entitled(reader) == ["p1"])
        g.advance(days: 15)
        #expect(try g.entitled(reader) == ["p1", "p2"])
        // E28: acknowledged once stored.
        #expect(g.simulator.acknowledgements == ["tok-1"])
        #expect(g.simulator.subscription("tok-1")?.acknowledged == true)
    }

    @Test func e3ALicenseTestersPurchaseIsSandbox() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.simulator.buy(token: "tok-t", productId: "basic", test: true)
        let answer = try g.post(reader, productId: "basic", token: "tok-t")
        #expect(answer.objects("subscriptions").first?["environment"] as? String == "sandbox")
    }

    @Test func badPostsAreRefusedAndChangeNothing() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.simulator.buy(token: "tok-1", productId: "basic")
        let foreign = try g.post(reader, productId: "basic", token: "tok-1", packageName: "com.other.app")
        #expect(foreign.status == 400, "\(foreign.text)")
        #expect(try g.post(reader, productId: "no-such-product", token: "tok-1").status == 400)
        #expect(try g.post(reader, productId: "premium", token: "tok-1").status == 400)
        let unknown = try g.post(reader, productId: "basic", token: "nobody")
        #expect(unknown.status == 404 && unknown.json["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "purchase_not_found")
        #expect(try g.subscriptions(reader).isEmpty)
        #expect(g.simulator.acknowledgements.isEmpty)
        try g.simulator.expire("tok-1")
        g.advance(days: 30 + 61)
        let gone = try g.post(reader, productId: "basic", token: "tok-1")
        #expect(gone.status == 410 && gone.json["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "purchase_expired")
    }

    @Test func googleUnreachableIs503WithRetryAfter() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.simulator.buy(token: "tok-1", productId: "basic")
        g.simulator.failNextCalls(10, status: 503)
        let answer = try g.post(reader, productId: "basic", token: "tok-1")
        #expect(answer.status == 503 && answer.header("Retry-After") != nil, "\(answer.text)")
        #expect(answer.json["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "store_unavailable")
        #expect(try g.subscriptions(reader).isEmpty)
    }

    @Test func e4TheObfuscatedAccountIdWinsOverThePoster() throws {
        let g = try GooglePlayGateway()
        let uuid = "7e3f1c2a-5b8d-4e6f-9a01-2c3d4e5f6a7b"
        let owner = try g.h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(uuid)"}"#)
        let ownerAccount = (id: try #require(owner.json["accountId"] as? String), token: try #require(owner.json["accountToken"] as? String))
        let poster = try g.h.createAccount()
        try g.simulator.buy(token: "tok-1", productId: "basic", account: uuid)
        #expect(try g.post(poster, productId: "basic", token: "tok-1").status == 200)
        #expect(try g.subscriptions(ownerAccount).count == 1)
        #expect(try g.subscriptions(poster).isEmpty)
    }

    /// E25: an upgrade links the new token to the old one, which is cut where the new one starts
    /// (never counted twice, one subscription); a re-signup after expiry has no link and unlocks
    /// the issue current at its start only.
    @Test func e25UpgradeThenResignupEntitlesEachIssueOnce() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.subscribe(reader, token: "tok-a", productId: "basic")                       // March 1st
        g.advance(days: 10)
        try g.subscribe(reader, token: "tok-b", productId: "premium", linkedTo: "tok-a")  // March 11th to April 10th
        let chain = try g.subscriptions(reader)
        #expect(chain.count == 1 && chain.first?["originalTransactionId"] as? String == "tok-a")
        #expect(chain.first?["productId"] as? String == "premium")
        g.advance(days: 30)
        try g.simulator.expire("tok-b")
        g.advance(days: 21)                                                            // May 1st
        try g.subscribe(reader, token: "tok-c", productId: "basic")
        g.advance(days: 20)
        // p3 (April 15th) fell in the gap; p4b (April 28th) is unlocked at the re-signup.
        #expect(try g.entitled(reader) == ["p1", "p2", "p4b", "p5"])
        let subscriptions = try g.subscriptions(reader)
        #expect(Set(subscriptions.compactMap { $0["originalTransactionId"] as? String }) == ["tok-a", "tok-c"])
        // Posting the old token again counts nothing twice.
        #expect(try g.post(reader, productId: "basic", token: "tok-a").status == 200)
        #expect(try g.entitled(reader) == ["p1", "p2", "p4b", "p5"])
    }

    @Test func e14ASingleIssueIsOwnedForGoodAndNeverConsumed() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        g.advance(days: 20)
        g.simulator.buyProduct(token: "issue-tok", productId: "issue_p2")
        let answer = try g.post(reader, productId: "issue_p2", token: "issue-tok")
        #expect(answer.status == 200, "\(answer.text)")
        #expect(try g.entitled(reader) == ["p2"])
        #expect(g.simulator.productPurchase("issue-tok")?.acknowledged == true)
        #expect(!g.simulator.apiRequests.contains { $0.contains("consume") })
    }
}

/// Support sees Google Play: a reader's refresh asks Google too, lookup finds a purchase token and
/// an order, the history names the source.
@Suite struct GooglePlaySupportTests {
    @Test func aRefreshAsksGoogleAndFindsARefundNoNotificationBrought() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.subscribe(reader, token: "tok-1", productId: "basic")
        g.advance(days: 20)
        let orderId = try #require(g.simulator.subscription("tok-1")?.orderIds.first)
        try g.simulator.refund(orderId: orderId)                               // no push delivered
        #expect(try g.entitled(reader) == ["p1", "p2"])
        let refreshed = try g.h.client.post("/v1/accounts/\(reader.id)/refresh", as: reader.token)
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(try g.entitled(reader).isEmpty)
        let history = try g.h.client.get("/v1/accounts/\(reader.id)/history", as: reader.token)
        #expect(history.objects("events").contains { $0["kind"] as? String == "refund" && $0["source"] as? String == "googlePlayApi" },
                "\(history.text)")
    }

    @Test func lookupFindsAPurchaseTokenAndAnOrder() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.subscribe(reader, token: "tok-1", productId: "basic")
        let orderId = try #require(g.simulator.subscription("tok-1")?.orderIds.first)
        let admin = GatewayHarness.adminKey
        let byToken = try g.h.client.get("/v1/lookup?purchaseToken=tok-1", as: admin)
        #expect(byToken.json["accountId"] as? String == reader.id && byToken.json["store"] as? String == "googlePlay")
        let byOrder = try g.h.client.get("/v1/lookup?orderId=\(orderId)", as: admin)
        #expect(byOrder.json["accountId"] as? String == reader.id && byOrder.json["transactionId"] as? String == orderId)
        #expect(try g.h.client.get("/v1/lookup?purchaseToken=nobody", as: admin).status == 404)
        // An App Store lookup of the same ids finds nothing: the store is part of the key (E1).
        #expect(try g.h.client.get("/v1/lookup?originalTransactionId=tok-1", as: admin).status == 404)
    }
}

/// E28: a purchase whose acknowledgement fails is still entitled, stays owed, is reported after a
/// day, and is acknowledged by the background retries.
@Suite struct GooglePlayAcknowledgementTests {
    @Test func e28AFailedAcknowledgementIsRetriedUntilGoogleTakesIt() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.simulator.buy(token: "tok-1", productId: "basic")
        g.simulator.failNextAcknowledgements(100)                              // the try at the post, then the retries
        #expect(try g.post(reader, productId: "basic", token: "tok-1").status == 200)
        #expect(try g.entitled(reader) == ["p1"])
        #expect(g.simulator.subscription("tok-1")?.acknowledged == false)
        let acknowledger = try #require(g.h.runtime.core.intake.acknowledger)
        #expect(acknowledger.pass() == 0)                                       // not due yet
        g.advance(days: 1)
        g.h.clock.advance(seconds: 1)
        #expect(acknowledger.pass() == 0)                                       // due, Google still failing
        let metrics = try g.h.client.get("/metrics")
        #expect(metrics.text.contains("issue_gateway_googleplay_unacknowledged_purchases 1"), "\(metrics.text.suffix(400))")
        g.simulator.failNextAcknowledgements(-g.simulator.acknowledgementsStillFailing)
        g.advance(days: 1)
        #expect(acknowledger.pass() == 1)
        #expect(g.simulator.subscription("tok-1")?.acknowledged == true)
        #expect(try g.h.client.get("/metrics").text.contains("issue_gateway_googleplay_unacknowledged_purchases 0"))
    }
}

/// E24: the pass over Google's voided purchases finds refunds no notification brought.
@Suite struct GooglePlayVoidedPassTests {
    @Test func e24TheVoidedPassFindsARefundAndAChargebackNoNotificationBrought() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.subscribe(reader, token: "tok-1", productId: "basic")
        let other = try g.h.createAccount()
        g.advance(days: 20)
        g.simulator.buyProduct(token: "issue-tok", productId: "issue_p2")
        #expect(try g.post(other, productId: "issue_p2", token: "issue-tok").status == 200)
        g.advance(days: 1)
        try g.simulator.refund(orderId: try #require(g.simulator.subscription("tok-1")?.orderIds.first))
        try g.simulator.refund(orderId: try #require(g.simulator.productPurchase("issue-tok")?.orderId), chargeback: true)
        g.advance(days: 1)
        #expect(try g.entitled(reader) == ["p1", "p2"] && g.entitled(other) == ["p2"])
        let pass = try #require(g.h.runtime.core.intake.voidedPass)
        #expect(pass.pass())
        #expect(try g.entitled(reader).isEmpty && g.entitled(other).isEmpty)
        // A second pass reads the overlap again and changes nothing.
        #expect(pass.pass())
        #expect(try g.entitled(reader).isEmpty)
    }

    @Test func theBackfillRouteReplaysAWindowForTheAdminOnly() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.subscribe(reader, token: "tok-1", productId: "basic")
        g.advance(days: 5)
        try g.simulator.refund(orderId: try #require(g.simulator.subscription("tok-1")?.orderIds.first))
        g.advance(days: 1)
        let window = #"{"start":"2026-03-01T00:00:00Z","end":"2026-03-10T00:00:00Z"}"#
        #expect(try g.h.client.post("/v1/googleplay/backfill", as: reader.token, json: window).status == 403)
        #expect(try g.h.client.post("/v1/googleplay/backfill", as: GatewayHarness.adminKey,
                                    json: #"{"start":"2026-01-01T00:00:00Z","end":"2026-03-10T00:00:00Z"}"#).status == 400)
        let future = try g.h.client.post("/v1/googleplay/backfill", as: GatewayHarness.adminKey,
                                         json: #"{"start":"2027-01-01T00:00:00Z","end":"2027-02-01T00:00:00Z"}"#)
        #expect(future.status == 400 && future.text.contains("earlier than now"), "\(future.text)")
        let answer = try g.h.client.post("/v1/googleplay/backfill", as: GatewayHarness.adminKey, json: window)
        #expect(answer.status == 202 && answer.json["purchases"] as? Int == 1, "\(answer.text)")
        #expect(try g.entitled(reader).isEmpty)
    }
}

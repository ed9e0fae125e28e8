import Foundation
import GooglePlaySimulator
import Testing
import GatewayTesting

/// googleplay.md: a pending purchase posted answers 200 with nothing entitled, and binds its token
/// to the posting account (E4; an `obfuscatedExternalAccountId` naming an account still wins), so
/// Google's later "purchased" entitles that account without a second post.
@Suite struct GooglePlayPendingBindingTests {
    let lifecycle = GooglePlayLifecycleTests()

    @Test func aPendingPurchasePostedEntitlesThePosterWhenGoogleLaterSaysPurchased() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        g.advance(days: 20)
        g.simulator.buyProduct(token: "p-tok", productId: "issue_p2", pending: true)
        #expect(try g.post(reader, productId: "issue_p2", token: "p-tok").status == 200)
        #expect(try g.entitled(reader).isEmpty, "nothing while it is pending")
        // The payment clears: Google sends ONE_TIME_PRODUCT_PURCHASED and nobody posts again.
        try lifecycle.take(g, g.simulator.buyProduct(token: "p-tok", productId: "issue_p2"))
        #expect(try g.entitled(reader) == ["p2"])
        let owner = try g.h.client.get("/v1/lookup?purchaseToken=p-tok", as: GatewayHarness.adminKey)
        #expect(owner.json["accountId"] as? String == reader.id)
    }

    @Test func theAccountTheObfuscatedIdNamesStillWinsOverThePoster() throws {
        let g = try GooglePlayGateway()
        let named = try g.h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(GooglePlayLifecycleTests.uuid)"}"#)
        let namedId = try #require(named.json["accountId"] as? String)
        let poster = try g.h.createAccount()
        g.advance(days: 20)
        g.simulator.buyProduct(token: "p-tok", productId: "issue_p2", account: GooglePlayLifecycleTests.uuid, pending: true)
        #expect(try g.post(poster, productId: "issue_p2", token: "p-tok").status == 200)
        try lifecycle.take(g, g.simulator.buyProduct(token: "p-tok", productId: "issue_p2", account: GooglePlayLifecycleTests.uuid))
        #expect(try g.entitled(poster).isEmpty)
        let owner = try g.h.client.get("/v1/lookup?purchaseToken=p-tok", as: GatewayHarness.adminKey)
        #expect(owner.json["accountId"] as? String == namedId)
    }
}

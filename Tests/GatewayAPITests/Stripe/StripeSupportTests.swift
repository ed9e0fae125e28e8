import Foundation
import StripeKit
import StripeSimulator
import Testing
import Wire

/// Support sees Stripe: lookup by `stripeSubscriptionId`, the history's sources (`stripeEvent`,
/// `stripeApi`) and stores, and a refresh that asks Stripe for what lost events did not bring.
@Suite struct StripeSupportTests {
    @Test func lookupByStripeSubscriptionId() throws {
        let flow = try StripeFlow()
        let reader = try flow.reader()
        let subscription = flow.stripe.checkout(account: reader.id, price: "price_monthly", product: "prod_mag", amount: 990)
        try flow.deliver()
        let found = try flow.harness.client.get("/v1/lookup?stripeSubscriptionId=\(subscription)", as: GatewayHarness.adminKey)
        #expect(found.status == 200)
        #expect(found.json["accountId"] as? String == reader.id && found.json["store"] as? String == "stripe")
        #expect(try flow.harness.client.get("/v1/lookup?stripeSubscriptionId=sub_nobody", as: GatewayHarness.adminKey).status == 404)
        // An App Store original transaction id of the same spelling is another subscription.
        #expect(try flow.harness.client.get("/v1/lookup?originalTransactionId=\(subscription)", as: GatewayHarness.adminKey).status == 404)
    }

    @Test func aRefreshAsksStripeForWhatLostEventsDidNotBring() throws {
        let flow = try StripeFlow()
        let reader = try flow.reader()
        let subscription = flow.stripe.checkout(account: reader.id, price: "price_monthly", product: "prod_mag", amount: 990)
        try flow.deliver()
        flow.stripe.renew(subscription)
        flow.dropPending()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        flow.harness.clock.set(flow.stripe.now)
        let refreshed = try flow.harness.client.post("/v1/accounts/\(reader.id)/refresh", as: reader.token)
        #expect(refreshed.status == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        let history = try flow.harness.client.get("/v1/accounts/\(reader.id)/history", as: GatewayHarness.adminKey)
        let events = try #require(history.json["events"] as? [[String: Any]])
        let sources = Set(events.compactMap { $0["source"] as? String })
        #expect(sources == ["stripeEvent", "stripeApi"])
    }
}

import Foundation
import StripeKit
import StripeSimulator
import Testing
import TestSupport
import Wire
import GatewayTesting

/// Support sees Stripe: lookup by `stripeSubscriptionId` and `stripeCustomerId`, the history's sources (`stripeEvent`,
/// `stripeApi`) and stores, and a refresh that asks Stripe for what lost events did not bring.
@Suite struct StripeSupportTests {
    @Test func lookupByStripeSubscriptionIdAndCustomerId() throws {
        let flow = try StripeFlow()
        let (reader, subscription) = try flow.subscribedReader()
        let found = try flow.harness.client.get("/v1/lookup?stripeSubscriptionId=\(subscription)", as: GatewayHarness.adminKey)
        #expect(found.status == 200)
        #expect(found.json["accountId"] as? String == reader.id && found.json["store"] as? String == "stripe")
        #expect(try flow.harness.client.get("/v1/lookup?stripeSubscriptionId=sub_nobody", as: GatewayHarness.adminKey).status == 404)
        let customer = try #require(flow.stripe.customer(of: subscription))
        let byCustomer = try flow.harness.client.get("/v1/lookup?stripeCustomerId=\(customer)", as: GatewayHarness.adminKey)
        #expect(byCustomer.status == 200 && byCustomer.json["accountId"] as? String == reader.id)
        #expect(byCustomer.json["originalTransactionId"] as? String == subscription)
        #expect(try flow.harness.client.get("/v1/lookup?stripeCustomerId=cus_nobody", as: GatewayHarness.adminKey).status == 404)
        // An App Store original transaction id of the same spelling is another subscription.
        #expect(try flow.harness.client.get("/v1/lookup?originalTransactionId=\(subscription)", as: GatewayHarness.adminKey).status == 404)
    }

    @Test func aRefreshAsksStripeForWhatLostEventsDidNotBring() throws {
        let flow = try StripeFlow()
        let (reader, subscription) = try flow.subscribedReader()
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

/// Each outside service has its own bounded pool: a reader's refresh runs on the App Store pool
/// and asks Stripe on Stripe's.
@Suite struct StripeRefreshPoolTests {
    /// Forwards to the simulator and notes the thread each subscription read ran on.
    final class ThreadNotingAPI: StripeAPI, @unchecked Sendable {
        let base: StripeSimulator
        private let lock = NSLock()
        private var threads: [String] = []

        init(_ base: StripeSimulator) { self.base = base }

        var seen: [String] { lock.withLock { threads } }
        func forget() { lock.withLock { threads.removeAll() } }

        func subscription(_ id: String) throws(StripeAPIFailure) -> StripeSubscription {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unknown"
            lock.withLock { threads.append(name.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return try base.subscription(id)
        }
        func invoice(_ id: String) throws(StripeAPIFailure) -> StripeInvoice { try base.invoice(id) }
        func paidInvoices(subscription: String) throws(StripeAPIFailure) -> [StripeInvoice] {
            try base.paidInvoices(subscription: subscription)
        }
        func charge(_ id: String) throws(StripeAPIFailure) -> StripeCharge { try base.charge(id) }
        func invoiceId(paidBy paymentIntent: String) throws(StripeAPIFailure) -> String? { try base.invoiceId(paidBy: paymentIntent) }
        func customer(_ id: String) throws(StripeAPIFailure) -> StripeCustomer { try base.customer(id) }
        func events(createdFrom start: Instant, before end: Instant) throws(StripeAPIFailure) -> [StripeEvent] {
            try base.events(createdFrom: start, before: end)
        }
    }

    @Test func aRefreshAsksStripeOnStripesPoolNotTheAppStores() throws {
        var noting: ThreadNotingAPI?
        let flow = try StripeFlow(wrapAPI: StripeFlow.APIWrap { simulator in
            let api = ThreadNotingAPI(simulator)
            noting = api
            return api
        })
        let api = try #require(noting)
        let (reader, subscription) = try flow.subscribedReader()
        flow.stripe.renew(subscription)
        flow.dropPending()
        flow.harness.clock.set(flow.stripe.now)
        api.forget()
        let refreshed = try flow.harness.client.post("/v1/accounts/\(reader.id)/refresh", as: reader.token)
        #expect(refreshed.status == 200)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        #expect(!api.seen.isEmpty)
        #expect(api.seen.allSatisfy { $0.hasPrefix("http-stripe-") }, "\(api.seen)")
    }

    @Test func aStalledStripePoolFailsOnlyRefreshesThatNeedStripe() throws {
        let flow = try StripeFlow()
        let (subscriber, _) = try flow.subscribedReader()
        let appStoreOnly = try flow.reader()
        try flow.harness.subscribe(appStoreOnly.id)
        // Stripe's threads all busy and its queue full (as a burst of webhooks would leave it).
        let release = Gate()
        var stalled = 0
        while stalled < 100_000, flow.harness.runtime.core.stripeWork.submit({ release.wait(seconds: 60) }) { stalled += 1 }
        defer { for _ in 0..<stalled { release.open() } }
        #expect(stalled > 0 && stalled < 100_000)
        let refreshed = try flow.harness.client.post("/v1/accounts/\(appStoreOnly.id)/refresh", as: appStoreOnly.token)
        #expect(refreshed.status == 200, "nothing to ask Stripe: no job on its pool")
        let busy = try flow.harness.client.post("/v1/accounts/\(subscriber.id)/refresh", as: subscriber.token)
        #expect(busy.status == 503 && busy.errorCode == "store_unavailable")
    }
}

/// `POST /v1/stripe/backfill`: Stripe's events list replayed for a window of at most 30 days,
/// deduplicated by event id as webhooks are.
@Suite struct StripeBackfillTests {
    @Test func lostEventsAreReplayedAndSeenOnesChangeNothing() throws {
        let flow = try StripeFlow()
        let (reader, subscription) = try flow.subscribedReader()
        flow.stripe.renew(subscription)
        flow.stripe.refund(subscription, full: false)
        flow.dropPending()
        flow.harness.clock.set(flow.stripe.now.adding(seconds: 60))
        // Within Stripe's 30 days: the renewal's two events and the refund.
        let window = #"{"start":"2026-01-15T00:00:00Z","end":"2026-12-31T00:00:00Z"}"#
        let answer = try flow.harness.client.post("/v1/stripe/backfill", as: GatewayHarness.adminKey, json: window)
        #expect(answer.status == 202)
        #expect(answer.json["events"] as? Int == 3)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        #expect(try flow.storedTransactions(reader).contains { $0.revocationPercentage == 50_000 })
        let facts = try flow.harness.runtime.core.store.accountFacts(reader.id)
        flow.harness.clock.set(flow.stripe.now.adding(seconds: 120))
        #expect(try flow.harness.client.post("/v1/stripe/backfill", as: GatewayHarness.adminKey, json: window).status == 202)
        #expect(try flow.harness.runtime.core.store.accountFacts(reader.id) == facts)
    }

    @Test func windowsAreChecked() throws {
        let flow = try StripeFlow()
        flow.harness.clock.set(Instant(rfc3339: "2026-03-01T00:00:00Z")!)
        let post = { (body: String) throws -> APIResponse in
            try flow.harness.client.post("/v1/stripe/backfill", as: GatewayHarness.adminKey, json: body)
        }
        #expect(try post(#"{"start":"2026-01-01T00:00:00Z","end":"2026-02-01T00:00:00Z"}"#).status == 400)  // older than 30 days
        #expect(try post(#"{"start":"2026-02-20T00:00:00Z","end":"2026-02-10T00:00:00Z"}"#).status == 400)
        let future = try post(#"{"start":"2026-03-02T00:00:00Z","end":"2026-03-05T00:00:00Z"}"#)
        #expect(future.status == 400 && future.text.contains("earlier than now"), "nothing has happened there to replay")
        #expect(try flow.harness.client.post("/v1/stripe/backfill", json: #"{"start":"2026-02-20T00:00:00Z","end":"2026-02-21T00:00:00Z"}"#).status == 401)
        let withoutAPI = try StripeFlow(api: false)
        withoutAPI.harness.clock.set(Instant(rfc3339: "2026-03-01T00:00:00Z")!)
        // Without an API key no retry helps, only an operator: 409, as for the App Store's backfill.
        let unconfigured = try withoutAPI.harness.client.post("/v1/stripe/backfill", as: GatewayHarness.adminKey,
                                                              json: #"{"start":"2026-02-20T00:00:00Z","end":"2026-02-21T00:00:00Z"}"#)
        #expect(unconfigured.status == 409)
        #expect(unconfigured.errorCode == "not_configured")
    }
}

import Foundation
import StripeKit
import StripeSimulator
import Testing
import Wire
import GatewayTesting

/// `POST /v1/stripe/webhooks` (http-api.md): 401 for a missing, forged, stale, future-dated or
/// changed signature, 400 for malformed JSON, 200 for unknown types and duplicates, 503 when a
/// fact needs Stripe's API and it cannot be had; nothing is stored in any refused case.
@Suite struct StripeWebhookRouteTests {
    /// A reader subscribed through Checkout, and the events that say so (not yet posted).
    func checkedOut(api: Bool = true) throws -> (StripeFlow, (id: String, token: String), [[UInt8]]) {
        let flow = try StripeFlow(api: api)
        let reader = try flow.reader()
        flow.stripe.checkout(account: reader.id, price: "price_monthly", product: "prod_mag", amount: 990)
        return (flow, reader, flow.allEvents)
    }

    @Test func badSignaturesAreRefusedAndNothingIsStored() throws {
        // Without Stripe's API, so that only the paid invoice itself brings its line.
        let (flow, reader, events) = try checkedOut(api: false)
        let paid = try #require(events.last)
        // The Checkout Session names the owner; the paid invoice is what is refused below.
        for body in events.dropLast() { #expect(try flow.post(body).status == 200) }
        let now = flow.harness.clock.now().secondsSinceEpoch
        var changed = paid
        changed[changed.count / 2] ^= 0x01
        let refused: [APIResponse] = [
            try flow.harness.client.send("POST", "/v1/stripe/webhooks", body: paid),       // no header
            try flow.post(paid, secret: "whsec_forged"),
            try flow.post(paid, at: now - 301),
            try flow.post(paid, at: now + 301),
            try flow.harness.client.send("POST", "/v1/stripe/webhooks", headers: [
                ("Stripe-Signature", try StripeSignatureVerifier.header(for: paid, timestamp: now, secrets: [StripeFlow.secret]))],
                body: changed),
        ]
        for answer in refused {
            #expect(answer.status == 401)
            #expect((answer.json["error"] as? [String: Any])?["code"] as? String == "unauthorized")
        }
        #expect(try flow.storedTransactions(reader).isEmpty)
        #expect(try flow.post(paid, at: now - 300).status == 200)
        #expect(try flow.storedTransactions(reader).count == 1)
    }

    @Test func malformedBodiesAre400() throws {
        let flow = try StripeFlow()
        for body in ["{", #"{"id":"evt_1","object":"event","type":"invoice.paid","created":1}"#, "[]",
                     #"{"id":"evt_2","object":"event","type":"invoice.paid","created":1,"data":{"object":{"id":"in_1"}}}"#] {
            let answer = try flow.post(Array(body.utf8))
            #expect(answer.status == 400, "\(body)")
        }
    }

    @Test func unknownTypesAreTakenAndIgnored() throws {
        let flow = try StripeFlow()
        let body = #"{"id":"evt_x","object":"event","type":"customer.tax_id.created","created":1767225600,"data":{"object":{"id":"txi_1"}}}"#
        let answer = try flow.post(Array(body.utf8))
        #expect(answer.status == 200)
    }

    @Test func theSameEventTwiceChangesNothing() throws {
        let (flow, reader, events) = try checkedOut()
        for body in events { #expect(try flow.post(body).status == 200) }
        let before = try flow.harness.runtime.core.store.accountFacts(reader.id)
        for body in events { #expect(try flow.post(body).status == 200) }
        let after = try flow.harness.runtime.core.store.accountFacts(reader.id)
        #expect(after == before)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }

    @Test func aFactThatNeedsStripesAPIWithoutItIs503AndStoresNothing() throws {
        let (flow, reader, events) = try checkedOut(api: false)
        for body in events { #expect(try flow.post(body).status == 200) }
        let stored = try flow.storedTransactions(reader)
        let subscription = try #require(stored.first?.originalTransactionId)
        let dispute = try #require(flow.stripe.openDispute(subscription))
        flow.stripe.closeDispute(dispute, won: false)
        let lost = try #require(flow.allEvents.last)
        let answer = try flow.post(lost)
        #expect(answer.status == 503)
        #expect((answer.json["error"] as? [String: Any])?["code"] as? String == "store_unavailable")
        #expect(answer.headers.contains { $0.0.lowercased() == "retry-after" })
        #expect(try flow.storedTransactions(reader) == stored)
    }
}

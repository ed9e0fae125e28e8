import Foundation
@testable import GatewayConfiguration
import StripeKit
import StripeSimulator
import Testing
import Wire
import GatewayTesting

/// The gateway's Stripe client over HTTP against the simulator's server: the key and the pinned
/// version on every call, both shapes, lists paged with `starting_after`, 429 and 5xx tried again,
/// webhooks in the older shape with answers in either (one gateway sees both shapes), and a webhook answered 503 (nothing stored) when Stripe stays unreachable, taken on redelivery.
@Suite struct StripeClientTests {
    @Test(arguments: StripeShape.allCases) func eventsThatNeedTheAPIAreTakenOverHTTP(_ version: StripeShape) throws {
        let flow = try StripeFlow(shape: .legacy, apiShape: .basil, overHTTP: true, apiVersion: version.apiVersion)
        let reader = try flow.reader()
        let subscription = flow.stripe.checkout(account: reader.id, price: "price_monthly", product: "prod_mag", amount: 990)
        flow.stripe.renew(subscription)
        let dispute = try #require(flow.stripe.openDispute(subscription))
        flow.stripe.closeDispute(dispute, won: false)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(try #require(flow.server).requests > 0)
    }

    @Test func retriesThenUnreachableIs503AndStoresNothing() throws {
        let flow = try StripeFlow(overHTTP: true)
        let server = try #require(flow.server)
        let (reader, subscription) = try flow.checkedOut()
        let lost = try flow.lostDispute(subscription)
        // Two failures, then an answer: within one call's attempts.
        server.failNext([503, 429])
        let stored = try flow.storedTransactions(reader)
        #expect(try flow.post(lost).status == 200)
        #expect(try flow.entitledIssues(reader).isEmpty)
        #expect(try flow.storedTransactions(reader) != stored)
        // The dispute is won on appeal an hour later, while Stripe is down throughout one delivery.
        flow.stripe.advance(seconds: 3600)
        let again = try #require(flow.stripe.openDispute(subscription))
        flow.stripe.closeDispute(again, won: true)
        let won = try #require(flow.allEvents.last)
        server.failNext([503, 503, 503])
        let before = try flow.storedTransactions(reader)
        let refused = try flow.post(won)
        #expect(refused.status == 503 && refused.header("Retry-After") != nil)
        #expect(try flow.storedTransactions(reader) == before)
        #expect(try flow.post(won).status == 200)  // Stripe's retry, once it answers again
        #expect(try flow.storedTransactions(reader) != before)
    }

    @Test func listsArePagedAndTheKeyIsRequired() throws {
        let stripe = StripeSimulator(start: StripeFlow.start)
        let server = StripeSimulatorServer(simulator: stripe, apiKey: "rk_right")
        let url = try server.start()
        defer { server.stop() }
        let subscription = stripe.checkout(account: "a", price: "price_monthly", product: "prod_mag", amount: 990)
        for _ in 0..<4 { stripe.renew(subscription) }
        var configuration = StripeClientConfiguration(baseURL: url, apiKey: "rk_right", apiVersion: StripeShape.basil.apiVersion)
        configuration.pageSize = 2
        configuration.initialBackoff = 0.01
        let client = StripeClient(configuration: configuration)
        let invoices = try client.paidInvoices(subscription: subscription)
        #expect(invoices.count == 5 && Set(invoices.map(\.id)).count == 5)
        let events = try client.events(createdFrom: StripeFlow.start, before: stripe.now.adding(seconds: 1))
        #expect(events.count == stripe.events.count && events.map(\.id) == stripe.events.map(\.id))
        #expect(throws: StripeAPIFailure.notFound("/v1/subscriptions/sub_missing")) { try client.subscription("sub_missing") }
        let wrongKey = StripeClient(configuration: StripeClientConfiguration(baseURL: url, apiKey: "rk_wrong", apiVersion: "2025-03-31.basil"))
        #expect(throws: StripeAPIFailure.refused(status: 401, message: "Invalid API Key provided")) { try wrongKey.subscription(subscription) }
    }
}

/// The simulator's signed delivery over a socket: every event taken, a 503 (Stripe's API down)
/// delivered again until it is taken.
@Suite struct StripeDeliveryTests {
    @Test func signedDeliveryWithRetries() throws {
        let flow = try StripeFlow(overHTTP: true, transport: .socket)
        let server = try #require(flow.server)
        let reader = try flow.reader()
        let subscription = flow.stripe.checkout(account: reader.id, price: "price_monthly", product: "prod_mag", amount: 990)
        let dispute = try #require(flow.stripe.openDispute(subscription))
        flow.stripe.closeDispute(dispute, won: false)
        let clock = flow.harness.clock
        let delivery = StripeEventDelivery(endpoint: URL(string: "http://127.0.0.1:\(flow.harness.port)/v1/stripe/webhooks")!,
                                           secret: StripeFlow.secret, now: { clock.now().secondsSinceEpoch })
        let events = flow.stripe.events.map { (id: $0.id, body: $0.body) }
        let first = delivery.deliver(Array(events.dropLast()))
        #expect(first.allSatisfy { $0.taken })
        server.failNext([503, 503, 503])  // the lost dispute's charge cannot be fetched on the first try
        let last = delivery.deliver(Array(events.suffix(1)))
        #expect(last.first?.statuses.first == 503 && last.first?.taken == true)
        #expect(try flow.entitledIssues(reader).isEmpty)
        #expect(try flow.storedTransactions(reader).first?.revocationKind == .void)
    }
}

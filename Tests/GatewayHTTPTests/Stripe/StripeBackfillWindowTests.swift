import Foundation
@testable import GatewayConfiguration
import StripeKit
import StripeSimulator
import Testing
import GatewayTesting
import Wire

/// stripe.md (list events): Stripe's `created` is whole seconds, so the gateway lists a window
/// `[start, end)` as `created[gte]=floor(start)` and `created[lt]=ceil(end)`.
@Suite struct StripeBackfillWindowTests {
    @Test func anEventCreatedInTheWindowsLastSecondIsListed() throws {
        let stripe = StripeSimulator(start: StripeFlow.start)
        let server = StripeSimulatorServer(simulator: stripe, apiKey: "rk_window")
        let url = try server.start()
        defer { server.stop() }
        _ = stripe.checkout(account: "a", price: "price_monthly", product: "prod_mag", amount: 990)
        let lastId = try #require(stripe.events.last?.id)
        let client = StripeClient(configuration: StripeClientConfiguration(baseURL: url, apiKey: "rk_window",
                                                                           apiVersion: StripeShape.basil.apiVersion))
        // The window ends half a second into the second its last event was created in.
        let events = try client.events(createdFrom: StripeFlow.start, before: stripe.now.adding(milliseconds: 500))
        #expect(events.map(\.id).contains(lastId))
        #expect(events.count == stripe.events.count)
    }
}

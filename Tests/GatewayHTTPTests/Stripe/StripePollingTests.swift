import Entitle
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import IssueCatalog
import Testing
import Wire
import GatewayTesting

/// The App Store status poller asks Apple about App Store subscriptions only: a Stripe
/// subscription near its expiry is never sent to Apple, with or without Server API credentials.
@Suite struct StripePollingTests {
    @Test(arguments: [false, true]) func stripeSubscriptionsNeverReachApple(_ serverAPI: Bool) throws {
        let flow = try AppStoreFlow(serverAPI: serverAPI)
        let line = Transaction(store: .stripe, environment: .production, transactionId: "in_1/il_1", originalTransactionId: "sub_1",
                               productId: "price_monthly", purchaseDate: FlowFixtures.at("2026-03-10T00:00:00Z"),
                               expiresDate: FlowFixtures.at("2026-04-10T00:00:00Z"), source: .stripeEvent)
        var batch = IngestBatch(accountId: nil, transactions: [line], at: FlowFixtures.at("2026-03-10T00:00:00Z"))
        batch.receiptData = serverAPI ? nil : "U1RSSVBF"
        _ = try flow.store.ingest(batch, policy: .transfer)
        flow.clock.set(FlowFixtures.at("2026-04-09T12:00:00Z"))
        let asked = flow.simulator.requests.count
        #expect(try #require(flow.runtime.poller).pass() == 0)
        #expect(flow.runtime.core.counters.pollChecks.value == 0)
        #expect(flow.simulator.requests.count == asked)
    }
}

import Foundation
import StripeSimulator
import Testing
import GatewayTesting

/// http-api.md: a wait Stripe asked for (its `Retry-After` on a 429 or 503) is passed on in the
/// gateway's 503 to the webhook, which Stripe then retries.
@Suite struct StripeRetryAfterTests {
    @Test func stripesRetryAfterIsPassedOn() throws {
        let flow = try StripeFlow(overHTTP: true)
        let (reader, subscription) = try flow.checkedOut()
        let lost = try flow.lostDispute(subscription)
        try #require(flow.server).failNext([503], retryAfter: "7")
        let before = try flow.storedTransactions(reader)
        let refused = try flow.post(lost)
        #expect(refused.status == 503 && refused.header("Retry-After") == "7", "\(refused.text)")
        #expect(try flow.storedTransactions(reader) == before)
    }
}

extension StripeFlow {
    /// A reader who bought the monthly subscription, its events delivered.
    func checkedOut() throws -> (reader: (id: String, token: String), subscription: String) {
        let reader = try reader()
        let subscription = stripe.checkout(account: reader.id, price: "price_monthly", product: "prod_mag", amount: 990)
        try deliver()
        return (reader, subscription)
    }

    /// The event of a dispute on `subscription` lost, not delivered: taking it needs Stripe's API
    /// (the disputed charge).
    func lostDispute(_ subscription: String) throws -> [UInt8] {
        let dispute = try #require(stripe.openDispute(subscription))
        stripe.closeDispute(dispute, won: false)
        let lost = try #require(allEvents.last)
        dropPending()
        return lost
    }
}

import Entitle
import GatewayStore

/// Facts proved to come from their store (E2: Apple's signatures and answers, a Stripe event's
/// signature or Stripe's API), ready to be stored.
package struct VerifiedFacts: Sendable {
    package var transactions: [Transaction] = []
    package var renewals: [RenewalInfo] = []
    /// The receipt to keep for status polling (Apple's `latest_receipt` when it sends one).
    package var receiptData: String?
    /// Subscriptions whose whole history (App Store Server API) is among the facts.
    package var historyFetched: [SubscriptionKey] = []
    /// Owners the store names (`IngestBatch.namedOwners`).
    package var namedOwners: [SubscriptionKey: String] = [:]
    /// The store's customer behind each subscription (`IngestBatch.customers`).
    package var customers: [SubscriptionKey: String] = [:]
    /// Google Play subscription snapshots fetched for these facts (`IngestBatch.playSnapshots`).
    package var playSnapshots: [PlaySnapshotRecord] = []

    package init(transactions: [Transaction] = [], renewals: [RenewalInfo] = [], receiptData: String? = nil, historyFetched: [SubscriptionKey] = []) {
        self.transactions = transactions; self.renewals = renewals; self.receiptData = receiptData; self.historyFetched = historyFetched
    }

    package mutating func append(_ other: VerifiedFacts) {
        transactions += other.transactions
        renewals += other.renewals
        receiptData = other.receiptData ?? receiptData
        historyFetched += other.historyFetched
        namedOwners.merge(other.namedOwners) { _, new in new }
        customers.merge(other.customers) { _, new in new }
        playSnapshots += other.playSnapshots
    }
}

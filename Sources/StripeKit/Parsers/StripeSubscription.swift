import Wire

/// A subscription (`sub_…`) as last fetched or sent: its status, what it renews into, how and
/// why it ended. The current period moved from the subscription to its items in basil; both are read.
public struct StripeSubscription: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        case incomplete, incompleteExpired = "incomplete_expired", trialing, active, pastDue = "past_due", canceled, unpaid, paused
    }

    public var id: String
    public var status: Status
    public var customer: String?
    public var livemode: Bool
    /// The first item's price: what the subscription renews into.
    public var price: String?
    public var currentPeriodEnd: Instant?
    public var cancelAtPeriodEnd: Bool
    public var cancelAt: Instant?
    public var canceledAt: Instant?
    public var endedAt: Instant?
    /// `cancellation_details.reason`: `cancellation_requested`, `payment_failed`, `payment_disputed`.
    public var cancellationReason: String?
    public var trialEnd: Instant?
    /// `pause_collection` set: Stripe keeps the status `active` and the paid lines decide (stripe.md).
    public var collectionPaused: Bool
    public var metadata: [String: String]

    public init(_ f: StripeFields) throws(StripeParseError) {
        id = try f.requiredString("id")
        let statusText = try f.requiredString("status")
        guard let status = Status(rawValue: statusText) else {
            throw .invalidField(f.name("status"), expected: Status.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.status = status
        customer = try f.id("customer")
        livemode = try f.bool("livemode") ?? false
        let items = try f.list("items").items
        let first = items.first
        // basil: the item's price and period; before, the subscription's own period and `plan`.
        var price = try first?.fields("price")?.string("id")
        if price == nil { price = try first?.string("price") }
        if price == nil { price = try f.fields("plan")?.string("id") }
        self.price = price
        var periodEnd = try first?.instant("current_period_end")
        if periodEnd == nil { periodEnd = try f.instant("current_period_end") }
        currentPeriodEnd = periodEnd
        cancelAtPeriodEnd = try f.bool("cancel_at_period_end") ?? false
        cancelAt = try f.instant("cancel_at")
        canceledAt = try f.instant("canceled_at")
        endedAt = try f.instant("ended_at")
        cancellationReason = try f.fields("cancellation_details")?.string("reason")
        trialEnd = try f.instant("trial_end")
        collectionPaused = try f.fields("pause_collection") != nil
        metadata = try f.metadata()
    }
}

import Wire

/// An invoice (`in_…`), read in both shapes: from `2025-03-31.basil` the subscription is under
/// `parent.subscription_details` and the payment behind it is an invoice payment; before, the
/// invoice carries `subscription`, `charge` and `payment_intent` itself.
public struct StripeInvoice: Sendable, Equatable {
    public var id: String
    /// `draft`, `open`, `paid`, `uncollectible` or `void`.
    public var status: String
    public var billingReason: String?
    public var customer: String?
    public var livemode: Bool
    public var subscription: String?
    /// The subscription's metadata as the invoice snapshot it (basil `parent.subscription_details.metadata`).
    public var subscriptionMetadata: [String: String]
    public var paidAt: Instant?
    /// Pre-basil only: the charge and payment intent that paid it.
    public var charge: String?
    public var paymentIntent: String?
    public var lines: [StripeInvoiceLine]
    /// The embedded lines are a first page: the rest must be fetched.
    public var linesHaveMore: Bool

    public init(_ f: StripeFields) throws(StripeParseError) {
        id = try f.requiredString("id")
        status = try f.requiredString("status")
        billingReason = try f.string("billing_reason")
        customer = try f.id("customer")
        livemode = try f.bool("livemode") ?? false
        let details = try f.fields("parent")?.fields("subscription_details")
        var subscription = try details?.id("subscription")
        if subscription == nil { subscription = try f.id("subscription") }
        self.subscription = subscription
        subscriptionMetadata = try details?.metadata() ?? [:]
        paidAt = try f.fields("status_transitions")?.instant("paid_at")
        charge = try f.id("charge")
        paymentIntent = try f.id("payment_intent")
        let (items, hasMore) = try f.list("lines")
        lines = []
        for item in items { lines.append(try StripeInvoiceLine(item)) }
        linesHaveMore = hasMore
    }

    public var isPaid: Bool { status == "paid" }
}

/// An invoice line (`il_…`): the period it pays for and its price, read from the basil fields
/// (`parent.subscription_item_details`, `pricing.price_details`) with the older ones
/// (`type`, `subscription`, `subscription_item`, `proration`, `price`) as the fallback.
public struct StripeInvoiceLine: Sendable, Equatable {
    public var id: String
    public var amount: Int64
    /// `[period.start, period.end)`: Stripe calls both ends inclusive, but consecutive periods
    /// share the instant, so it is read half-open.
    public var periodStart: Instant
    public var periodEnd: Instant
    public var description: String?
    /// The subscription the line bills (nil: an invoice item, such as a single issue).
    public var subscription: String?
    public var subscriptionItem: String?
    public var proration: Bool
    public var price: String?
    public var product: String?

    public init(_ f: StripeFields) throws(StripeParseError) {
        id = try f.requiredString("id")
        amount = try f.integer("amount") ?? 0
        guard let period = try f.fields("period") else { throw .missingField(f.name("period")) }
        periodStart = try period.requiredInstant("start")
        periodEnd = try period.requiredInstant("end")
        description = try f.string("description")
        let parent = try f.fields("parent")
        if let item = try parent?.fields("subscription_item_details") {
            subscription = try item.id("subscription")
            subscriptionItem = try item.id("subscription_item")
            proration = try item.bool("proration") ?? false
        } else if parent != nil {
            subscription = nil; subscriptionItem = nil; proration = false
        } else {
            let type = try f.string("type")
            subscription = type == "invoiceitem" ? nil : try f.id("subscription")
            subscriptionItem = try f.id("subscription_item")
            proration = try f.bool("proration") ?? false
        }
        let pricing = try f.fields("pricing")
        if let pricing, try pricing.string("type") == "price_details", let details = try pricing.fields("price_details") {
            price = try details.id("price"); product = try details.id("product")
        } else if let old = try f.fields("price") {
            price = try old.requiredString("id"); product = try old.id("product")
        } else {
            price = try f.string("price"); product = nil
        }
    }

    public var isTrialDescription: Bool { description?.hasPrefix("Trial period") == true }
}

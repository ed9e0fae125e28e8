import Wire

/// What the simulated Stripe account holds: the objects its steps made, as Stripe keeps them.
struct StripeSimulatorState {
    struct Subscription {
        var id: String, customer: String, itemId: String, price: String, product: String, amount: Int64
        var status: String, periodStart: Instant, periodEnd: Instant
        var cancelAtPeriodEnd = false, canceledAt: Instant? = nil, endedAt: Instant? = nil, reason: String? = nil
        var trialEnd: Instant? = nil, metadata: [String: String] = [:], latestInvoice: String? = nil
    }
    struct Line {
        var id: String, amount: Int64, start: Instant, end: Instant, price: String, product: String
        var subscription: String?, subscriptionItem: String?, proration = false, description: String? = nil
    }
    struct Invoice {
        var id: String, customer: String, subscription: String?, status: String, billingReason: String
        var periodStart: Instant, periodEnd: Instant, paidAt: Instant? = nil, lines: [Line]
        var charge: String? = nil, paymentIntent: String? = nil, subscriptionMetadata: [String: String] = [:]
        var amount: Int64 { lines.reduce(0) { $0 + $1.amount } }
    }
    struct Charge { var id: String, amount: Int64, amountRefunded: Int64 = 0, invoice: String, paymentIntent: String }
    struct Dispute { var id: String, charge: String, paymentIntent: String, amount: Int64, status: String }
    struct Event { var id: String, type: String, created: Instant, body: [UInt8] }

    var now: Instant
    var livemode: Bool
    var counter = 0
    var customers: [String: [String: String]] = [:]
    var subscriptions: [String: Subscription] = [:]
    var invoices: [String: Invoice] = [:]
    var invoiceOrder: [String] = []
    var charges: [String: Charge] = [:]
    var disputes: [String: Dispute] = [:]
    var events: [Event] = []

    mutating func nextId(_ prefix: String) -> String {
        counter += 1
        return prefix + "_sim" + String(counter)
    }
}

import Wire

/// A charge (`ch_…`): how much of it was refunded. Before basil it names its invoice.
public struct StripeCharge: Sendable, Equatable {
    public var id: String
    public var amount: Int64
    public var amountRefunded: Int64
    /// True only when refunded in full (E24: a void); a partial refund changes no entitlement.
    public var refunded: Bool
    public var paymentIntent: String?
    public var invoice: String?
    public var livemode: Bool

    public init(_ f: StripeFields) throws(StripeParseError) {
        id = try f.requiredString("id")
        amount = try f.integer("amount") ?? 0
        amountRefunded = try f.integer("amount_refunded") ?? 0
        refunded = try f.bool("refunded") ?? false
        paymentIntent = try f.id("payment_intent")
        invoice = try f.id("invoice")
        livemode = try f.bool("livemode") ?? false
    }
}

/// A dispute (`dp_…`) on a charge. Only `lost` voids and `won` restores (stripe.md); the other
/// statuses change nothing.
public struct StripeDispute: Sendable, Equatable {
    public var id: String
    public var charge: String
    public var status: String
    public var livemode: Bool

    public init(_ f: StripeFields) throws(StripeParseError) {
        id = try f.requiredString("id")
        guard let charge = try f.id("charge") else { throw .missingField(f.name("charge")) }
        self.charge = charge
        status = try f.requiredString("status")
        livemode = try f.bool("livemode") ?? false
    }
}

/// A refund (`re_…`), as `refund.updated` carries it: which charge it returns money from.
public struct StripeRefund: Sendable, Equatable {
    public var id: String
    public var charge: String?

    public init(_ f: StripeFields) throws(StripeParseError) {
        id = try f.requiredString("id")
        charge = try f.id("charge")
    }
}

/// An invoice payment (`inpay_…`, basil and later): which invoice a payment intent paid.
public struct StripeInvoicePayment: Sendable, Equatable {
    public var invoice: String
    public var paymentIntent: String?
    public var status: String?

    public init(_ f: StripeFields) throws(StripeParseError) {
        guard let invoice = try f.id("invoice") else { throw .missingField(f.name("invoice")) }
        self.invoice = invoice
        paymentIntent = try f.fields("payment")?.id("payment_intent")
        status = try f.string("status")
    }
}

/// A Checkout Session: who the publisher's server said the buyer is (`client_reference_id` or the
/// metadata key), and what it bought.
public struct StripeCheckoutSession: Sendable, Equatable {
    public var id: String
    public var clientReferenceId: String?
    public var customer: String?
    public var subscription: String?
    public var invoice: String?
    public var metadata: [String: String]
    public var livemode: Bool

    public init(_ f: StripeFields) throws(StripeParseError) {
        id = try f.requiredString("id")
        clientReferenceId = try f.string("client_reference_id")
        customer = try f.id("customer")
        subscription = try f.id("subscription")
        invoice = try f.id("invoice")
        metadata = try f.metadata()
        livemode = try f.bool("livemode") ?? false
    }
}

/// A customer (`cus_…`): only its metadata is read (the account key).
public struct StripeCustomer: Sendable, Equatable {
    public var id: String
    public var metadata: [String: String]

    public init(_ f: StripeFields) throws(StripeParseError) {
        id = try f.requiredString("id")
        metadata = try f.metadata()
    }
}

import Wire

/// Stripe's objects as its API renders them, in either shape (stripe.md, Objects).
struct StripeRendering {
    let shape: StripeShape
    let livemode: Bool
    /// Lines embedded in an invoice before `has_more` (the rest through `/v1/invoices/{id}/lines`).
    static let embeddedLines = 10

    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members.map { JSONMember($0.0, $0.1) }))
    }
    static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    static func seconds(_ value: Instant?) -> JSONValue { value.map { .integer($0.secondsSinceEpoch) } ?? .null }
    static func metadata(_ values: [String: String]) -> JSONValue {
        object(values.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    }
    static func list(_ items: [JSONValue], hasMore: Bool = false, url: String) -> JSONValue {
        object([("object", .string("list")), ("data", .array(items)), ("has_more", .bool(hasMore)), ("url", .string(url))])
    }

    func subscription(_ s: StripeSimulatorState.Subscription) -> JSONValue {
        var item: [(String, JSONValue)] = [("id", .string(s.itemId)), ("object", .string("subscription_item")),
                                           ("price", Self.object([("id", .string(s.price)), ("product", .string(s.product))]))]
        var members: [(String, JSONValue)] = [
            ("id", .string(s.id)), ("object", .string("subscription")), ("status", .string(s.status)),
            ("customer", .string(s.customer)), ("livemode", .bool(livemode)),
            ("cancel_at_period_end", .bool(s.cancelAtPeriodEnd)), ("cancel_at", s.cancelAtPeriodEnd ? Self.seconds(s.periodEnd) : .null),
            ("canceled_at", Self.seconds(s.canceledAt)), ("ended_at", Self.seconds(s.endedAt)),
            ("cancellation_details", Self.object([("reason", Self.text(s.reason))])),
            ("trial_end", Self.seconds(s.trialEnd)), ("metadata", Self.metadata(s.metadata)),
            ("latest_invoice", Self.text(s.latestInvoice)),
        ]
        switch shape {
        case .basil:
            item += [("current_period_start", Self.seconds(s.periodStart)), ("current_period_end", Self.seconds(s.periodEnd))]
        case .legacy:
            members += [("current_period_start", Self.seconds(s.periodStart)), ("current_period_end", Self.seconds(s.periodEnd)),
                        ("plan", Self.object([("id", .string(s.price))]))]
        }
        members.append(("items", Self.list([Self.object(item)], url: "/v1/subscription_items?subscription=\(s.id)")))
        return Self.object(members)
    }

    func line(_ l: StripeSimulatorState.Line) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(l.id)), ("object", .string("line_item")), ("amount", .integer(l.amount)),
            ("description", Self.text(l.description)),
            ("period", Self.object([("start", Self.seconds(l.start)), ("end", Self.seconds(l.end))])), ("quantity", .integer(1)),
        ]
        switch shape {
        case .basil:
            let parent: JSONValue = l.subscription.map { sub in
                Self.object([("type", .string("subscription_item_details")),
                             ("subscription_item_details", Self.object([
                                ("subscription", .string(sub)), ("subscription_item", Self.text(l.subscriptionItem)),
                                ("proration", .bool(l.proration))]))])
            } ?? Self.object([("type", .string("invoice_item_details")),
                              ("invoice_item_details", Self.object([("invoice_item", .string("ii_" + l.id))]))])
            members += [("parent", parent),
                        ("pricing", Self.object([("type", .string("price_details")),
                                                 ("price_details", Self.object([("price", .string(l.price)),
                                                                                ("product", .string(l.product))]))]))]
        case .legacy:
            members += [("type", .string(l.subscription == nil ? "invoiceitem" : "subscription")),
                        ("subscription", Self.text(l.subscription)), ("subscription_item", Self.text(l.subscriptionItem)),
                        ("proration", .bool(l.proration)),
                        ("price", Self.object([("id", .string(l.price)), ("product", .string(l.product))]))]
        }
        return Self.object(members)
    }

    func invoice(_ i: StripeSimulatorState.Invoice) -> JSONValue {
        let embedded = i.lines.prefix(Self.embeddedLines).map(line)
        var members: [(String, JSONValue)] = [
            ("id", .string(i.id)), ("object", .string("invoice")), ("status", .string(i.status)),
            ("billing_reason", .string(i.billingReason)), ("customer", .string(i.customer)), ("livemode", .bool(livemode)),
            ("amount_paid", .integer(i.paidAt == nil ? 0 : i.amount)), ("total", .integer(i.amount)), ("currency", .string("eur")),
            // The trap: a renewal invoice's own period is the previous one (never read for periods).
            ("period_start", Self.seconds(i.periodStart)), ("period_end", Self.seconds(i.periodEnd)),
            ("status_transitions", Self.object([("paid_at", Self.seconds(i.paidAt))])),
            ("lines", Self.list(Array(embedded), hasMore: i.lines.count > Self.embeddedLines, url: "/v1/invoices/\(i.id)/lines")),
        ]
        switch shape {
        case .basil:
            members.append(("parent", i.subscription.map { sub in
                Self.object([("type", .string("subscription_details")),
                             ("subscription_details", Self.object([("subscription", .string(sub)),
                                                                   ("metadata", Self.metadata(i.subscriptionMetadata))]))])
            } ?? .null))
        case .legacy:
            members += [("subscription", Self.text(i.subscription)), ("charge", Self.text(i.charge)),
                        ("payment_intent", Self.text(i.paymentIntent)), ("paid", .bool(i.status == "paid"))]
        }
        return Self.object(members)
    }

    func charge(_ c: StripeSimulatorState.Charge) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(c.id)), ("object", .string("charge")), ("amount", .integer(c.amount)),
            ("amount_refunded", .integer(c.amountRefunded)), ("refunded", .bool(c.amountRefunded >= c.amount)),
            ("payment_intent", .string(c.paymentIntent)), ("livemode", .bool(livemode)),
        ]
        if shape == .legacy { members.append(("invoice", .string(c.invoice))) }
        return Self.object(members)
    }

    func dispute(_ d: StripeSimulatorState.Dispute) -> JSONValue {
        Self.object([("id", .string(d.id)), ("object", .string("dispute")), ("charge", .string(d.charge)),
                     ("payment_intent", .string(d.paymentIntent)), ("amount", .integer(d.amount)),
                     ("status", .string(d.status)), ("livemode", .bool(livemode))])
    }

    func customer(_ id: String, metadata: [String: String]) -> JSONValue {
        Self.object([("id", .string(id)), ("object", .string("customer")), ("metadata", Self.metadata(metadata))])
    }

    func invoicePayment(_ c: StripeSimulatorState.Charge) -> JSONValue {
        Self.object([("id", .string("inpay_" + c.id)), ("object", .string("invoice_payment")), ("invoice", .string(c.invoice)),
                     ("status", .string("paid")), ("amount_paid", .integer(c.amount)),
                     ("payment", Self.object([("type", .string("payment_intent")), ("payment_intent", .string(c.paymentIntent))]))])
    }

    func event(id: String, type: String, created: Instant, object: JSONValue) -> JSONValue {
        Self.object([("id", .string(id)), ("object", .string("event")), ("api_version", .string(shape.apiVersion)),
                     ("created", Self.seconds(created)), ("livemode", .bool(livemode)), ("type", .string(type)),
                     ("data", Self.object([("object", object)])), ("pending_webhooks", .integer(1))])
    }
}

import IssueCatalog
import StripeKit
import Synchronization
import Wire

/// Stripe played from scenario steps, for tests and developers (never the product): checkout,
/// trial, renewal, a failed payment and its recovery, cancellation at period end or now, full and
/// partial refunds, disputes opened, lost and won, pause and resume, a plan change with
/// proration, a single-issue purchase. Each step changes the simulated account as Stripe would
/// and records the events Stripe would send, rendered in `webhookShape`; the API reads
/// (`StripeAPI`) answer in `apiShape`. Time moves only when a step or the test moves it.
public final class StripeSimulator: StripeAPI, Sendable {
    public let webhookShape: StripeShape
    public let apiShape: StripeShape
    /// The metadata key the gateway is configured to read (`ISSUE_GATEWAY_STRIPE_ACCOUNT_KEY`).
    public let accountKey: String
    let state: Mutex<StripeSimulatorState>
    static let month = ISODuration("P1M")!

    public init(start: Instant, livemode: Bool = true, webhookShape: StripeShape = .basil, apiShape: StripeShape = .basil,
                accountKey: String = "issue_gateway_account") {
        self.webhookShape = webhookShape; self.apiShape = apiShape; self.accountKey = accountKey
        state = Mutex(StripeSimulatorState(now: start, livemode: livemode))
    }

    /// Where the gateway's account id goes at checkout (stripe.md, Decisions).
    public enum AccountNaming: Sendable { case clientReference, subscriptionMetadata, customerMetadata, none }

    public var now: Instant { state.withLock { $0.now } }
    public func advance(seconds: Int64) { state.withLock { $0.now = $0.now.adding(seconds: seconds) } }
    public func advance(to instant: Instant) { state.withLock { $0.now = max($0.now, instant) } }

    /// The customer (`cus_…`) a subscription belongs to.
    public func customer(of subscription: String) -> String? { state.withLock { $0.subscriptions[subscription]?.customer } }

    /// Every event recorded so far, in the order Stripe made them.
    public var events: [(id: String, type: String, body: [UInt8])] { state.withLock { $0.events.map { ($0.id, $0.type, $0.body) } } }

    // MARK: Steps

    /// A Checkout Session that starts a subscription: paid at once, or after a trial of `trialDays`
    /// (a $0 line "Trial period for …"). Returns the subscription id.
    @discardableResult
    public func checkout(account: String?, naming: AccountNaming = .clientReference, price: String, product: String,
                         amount: Int64, trialDays: Int? = nil) -> String {
        state.withLock { s in
            let customer = s.nextId("cus")
            s.customers[customer] = naming == .customerMetadata ? account.map { [accountKey: $0] } ?? [:] : [:]
            let start = s.now
            let end = trialDays.map { start.adding(seconds: Int64($0) * 86_400) } ?? Self.month.added(to: start)
            var sub = StripeSimulatorState.Subscription(
                id: s.nextId("sub"), customer: customer, itemId: s.nextId("si"), price: price, product: product, amount: amount,
                status: trialDays == nil ? "active" : "trialing", periodStart: start, periodEnd: end)
            if trialDays != nil { sub.trialEnd = end }
            if naming == .subscriptionMetadata, let account { sub.metadata = [accountKey: account] }
            let line = StripeSimulatorState.Line(
                id: s.nextId("il"), amount: trialDays == nil ? amount : 0, start: start, end: end, price: price, product: product,
                subscription: sub.id, subscriptionItem: sub.itemId, description: trialDays == nil ? nil : "Trial period for \(product)")
            s.subscriptions[sub.id] = sub
            let session = StripeRendering.object([
                ("id", .string(s.nextId("cs"))), ("object", .string("checkout.session")), ("mode", .string("subscription")),
                ("client_reference_id", naming == .clientReference ? StripeRendering.text(account) : .null),
                ("customer", .string(customer)), ("subscription", .string(sub.id)), ("payment_status", .string("paid")),
                ("metadata", StripeRendering.metadata([:])), ("livemode", .bool(s.livemode))])
            emit(&s, "checkout.session.completed", session)
            emit(&s, "customer.subscription.created", render(s).subscription(sub))
            pay(&s, newInvoice(&s, sub: sub.id, reason: "subscription_create", previous: (start, start), lines: [line]))
            return sub.id
        }
    }

    /// The subscription renews at its period end: a paid `subscription_cycle` invoice for the next period.
    public func renew(_ subscription: String) {
        state.withLock { s in
            let previous = roll(&s, subscription, status: "active")
            pay(&s, newInvoice(&s, sub: subscription, reason: "subscription_cycle", previous: previous, lines: [nextLine(&s, subscription)]))
        }
    }

    /// The renewal payment fails: the invoice stays open, the subscription is `past_due`.
    public func failRenewal(_ subscription: String) {
        state.withLock { s in
            let previous = roll(&s, subscription, status: "past_due")
            let invoice = newInvoice(&s, sub: subscription, reason: "subscription_cycle", previous: previous, lines: [nextLine(&s, subscription)])
            emit(&s, "invoice.payment_failed", render(s).invoice(s.invoices[invoice]!))
        }
    }

    /// A retry succeeds `afterSeconds` later: the open invoice is paid, the subscription active again.
    public func recover(_ subscription: String, afterSeconds: Int64) {
        state.withLock { s in
            s.now = s.now.adding(seconds: afterSeconds)
            guard let open = s.invoiceOrder.last(where: { s.invoices[$0]?.subscription == subscription && s.invoices[$0]?.status == "open" })
            else { return }
            s.subscriptions[subscription]?.status = "active"
            pay(&s, open)
            emit(&s, "customer.subscription.updated", render(s).subscription(s.subscriptions[subscription]!))
        }
    }

    /// Retries are exhausted: the subscription ends for `payment_failed`.
    public func endAfterFailedPayments(_ subscription: String, afterSeconds: Int64) {
        state.withLock { s in
            s.now = s.now.adding(seconds: afterSeconds)
            end(&s, subscription, at: s.now, reason: "payment_failed")
        }
    }

    /// The reader turns renewal off: the subscription runs to its period end.
    public func cancelAtPeriodEnd(_ subscription: String) {
        state.withLock { s in
            s.subscriptions[subscription]?.cancelAtPeriodEnd = true
            s.subscriptions[subscription]?.canceledAt = s.now
            emit(&s, "customer.subscription.updated", render(s).subscription(s.subscriptions[subscription]!))
        }
    }

    /// A subscription set to cancel reaches its period end and ends.
    public func reachPeriodEnd(_ subscription: String) {
        state.withLock { s in
            guard let end = s.subscriptions[subscription]?.periodEnd else { return }
            s.now = max(s.now, end)
            self.end(&s, subscription, at: end, reason: "cancellation_requested")
        }
    }

    /// The subscription ends now, before its period ends (`reason` as Stripe's cancellation_details).
    public func cancelNow(_ subscription: String, reason: String = "cancellation_requested") {
        state.withLock { s in end(&s, subscription, at: s.now, reason: reason) }
    }

    /// The payment behind the subscription's latest paid invoice is refunded, in full or half of it.
    public func refund(_ subscription: String, full: Bool) {
        state.withLock { s in
            guard let chargeId = latestCharge(s, subscription), var charge = s.charges[chargeId] else { return }
            charge.amountRefunded = full ? charge.amount : charge.amount / 2
            s.charges[chargeId] = charge
            emit(&s, "charge.refunded", render(s).charge(charge))
        }
    }

    /// The reader disputes the latest payment; returns the dispute id.
    @discardableResult
    public func openDispute(_ subscription: String) -> String? {
        state.withLock { s in
            guard let chargeId = latestCharge(s, subscription), let charge = s.charges[chargeId] else { return nil }
            let dispute = StripeSimulatorState.Dispute(id: s.nextId("dp"), charge: chargeId, paymentIntent: charge.paymentIntent,
                                                       amount: charge.amount, status: "needs_response")
            s.disputes[dispute.id] = dispute
            emit(&s, "charge.dispute.created", render(s).dispute(dispute))
            return dispute.id
        }
    }

    /// The dispute closes, won or lost by the publisher.
    public func closeDispute(_ id: String, won: Bool) {
        state.withLock { s in
            s.disputes[id]?.status = won ? "won" : "lost"
            emit(&s, "charge.dispute.closed", render(s).dispute(s.disputes[id]!))
        }
    }

    /// The subscription is paused (status `paused`): no invoices until it resumes.
    public func pause(_ subscription: String) {
        state.withLock { s in
            s.subscriptions[subscription]?.status = "paused"
            emit(&s, "customer.subscription.paused", render(s).subscription(s.subscriptions[subscription]!))
        }
    }

    /// The subscription resumes: a new billing period starts now and is paid.
    public func resume(_ subscription: String) {
        state.withLock { s in
            guard var sub = s.subscriptions[subscription] else { return }
            let previous = (sub.periodStart, sub.periodEnd)
            sub.status = "active"; sub.periodStart = s.now; sub.periodEnd = Self.month.added(to: s.now)
            s.subscriptions[subscription] = sub
            emit(&s, "customer.subscription.resumed", render(s).subscription(sub))
            pay(&s, newInvoice(&s, sub: subscription, reason: "subscription_update", previous: previous, lines: [nextLine(&s, subscription)]))
        }
    }

    /// The plan changes now to `price`, prorated and invoiced at once: a credit line for the
    /// unused time on the old price and a line for the remaining time on the new one.
    public func changePlan(_ subscription: String, to price: String, product: String, amount: Int64) {
        state.withLock { s in
            guard var sub = s.subscriptions[subscription] else { return }
            let total = sub.periodEnd.millisecondsSinceEpoch - sub.periodStart.millisecondsSinceEpoch
            let left = sub.periodEnd.millisecondsSinceEpoch - s.now.millisecondsSinceEpoch
            let credit = StripeSimulatorState.Line(
                id: s.nextId("il"), amount: -(sub.amount * left / max(total, 1)), start: s.now, end: sub.periodEnd, price: sub.price,
                product: sub.product, subscription: sub.id, subscriptionItem: sub.itemId, proration: true,
                description: "Unused time on \(sub.product)")
            let charge = StripeSimulatorState.Line(
                id: s.nextId("il"), amount: amount * left / max(total, 1), start: s.now, end: sub.periodEnd, price: price,
                product: product, subscription: sub.id, subscriptionItem: sub.itemId, proration: true,
                description: "Remaining time on \(product)")
            sub.price = price; sub.product = product; sub.amount = amount
            s.subscriptions[subscription] = sub
            emit(&s, "customer.subscription.updated", render(s).subscription(sub))
            pay(&s, newInvoice(&s, sub: subscription, reason: "subscription_update", previous: (sub.periodStart, s.now),
                               lines: [credit, charge]))
        }
    }

    /// A one-off purchase through Checkout (`mode: payment`, an invoice created): a single issue
    /// when `price` maps to an `issue` product. Returns the invoice id.
    @discardableResult
    public func buyIssue(account: String?, price: String, product: String, amount: Int64) -> String {
        state.withLock { s in
            let customer = s.nextId("cus")
            s.customers[customer] = [:]
            let line = StripeSimulatorState.Line(id: s.nextId("il"), amount: amount, start: s.now, end: s.now, price: price,
                                                 product: product, subscription: nil, subscriptionItem: nil)
            let invoice = StripeSimulatorState.Invoice(id: s.nextId("in"), customer: customer, subscription: nil, status: "draft",
                                                      billingReason: "manual", periodStart: s.now, periodEnd: s.now, lines: [line])
            s.invoices[invoice.id] = invoice
            s.invoiceOrder.append(invoice.id)
            let session = StripeRendering.object([
                ("id", .string(s.nextId("cs"))), ("object", .string("checkout.session")), ("mode", .string("payment")),
                ("client_reference_id", StripeRendering.text(account)), ("customer", .string(customer)),
                ("invoice", .string(invoice.id)), ("payment_status", .string("paid")),
                ("metadata", StripeRendering.metadata([:])), ("livemode", .bool(s.livemode))])
            emit(&s, "checkout.session.completed", session)
            pay(&s, invoice.id)
            return invoice.id
        }
    }

    // MARK: The account's bookkeeping

    func render(_ s: StripeSimulatorState, shape: StripeShape? = nil) -> StripeRendering {
        StripeRendering(shape: shape ?? webhookShape, livemode: s.livemode)
    }

    private func emit(_ s: inout StripeSimulatorState, _ type: String, _ object: JSONValue) {
        let id = s.nextId("evt")
        let body = render(s).event(id: id, type: type, created: s.now, object: object).serializedBytes
        s.events.append(StripeSimulatorState.Event(id: id, type: type, created: s.now, body: body))
    }

    private func newInvoice(_ s: inout StripeSimulatorState, sub: String, reason: String, previous: (Instant, Instant),
                            lines: [StripeSimulatorState.Line]) -> String {
        let subscription = s.subscriptions[sub]!
        let invoice = StripeSimulatorState.Invoice(
            id: s.nextId("in"), customer: subscription.customer, subscription: sub, status: "open", billingReason: reason,
            periodStart: previous.0, periodEnd: previous.1, lines: lines, subscriptionMetadata: subscription.metadata)
        s.invoices[invoice.id] = invoice
        s.invoiceOrder.append(invoice.id)
        s.subscriptions[sub]?.latestInvoice = invoice.id
        return invoice.id
    }

    /// Pays an invoice now (a charge when it costs something) and sends `invoice.paid`.
    private func pay(_ s: inout StripeSimulatorState, _ id: String) {
        guard var invoice = s.invoices[id] else { return }
        invoice.status = "paid"; invoice.paidAt = s.now
        if invoice.amount > 0 {
            let charge = StripeSimulatorState.Charge(id: s.nextId("ch"), amount: invoice.amount, invoice: id, paymentIntent: s.nextId("pi"))
            s.charges[charge.id] = charge
            invoice.charge = charge.id; invoice.paymentIntent = charge.paymentIntent
        }
        s.invoices[id] = invoice
        emit(&s, "invoice.paid", render(s).invoice(invoice))
    }

    /// Moves the subscription to its next period (time moves to its period end) and sends the
    /// update; returns the period it left (a renewal invoice's own, misleading, period).
    private func roll(_ s: inout StripeSimulatorState, _ id: String, status: String) -> (Instant, Instant) {
        var sub = s.subscriptions[id]!
        let previous = (sub.periodStart, sub.periodEnd)
        s.now = max(s.now, sub.periodEnd)
        sub.periodStart = sub.periodEnd; sub.periodEnd = Self.month.added(to: sub.periodEnd); sub.status = status
        s.subscriptions[id] = sub
        emit(&s, "customer.subscription.updated", render(s).subscription(sub))
        return previous
    }

    private func nextLine(_ s: inout StripeSimulatorState, _ id: String) -> StripeSimulatorState.Line {
        let sub = s.subscriptions[id]!
        return StripeSimulatorState.Line(id: s.nextId("il"), amount: sub.amount, start: sub.periodStart, end: sub.periodEnd,
                                         price: sub.price, product: sub.product, subscription: sub.id, subscriptionItem: sub.itemId)
    }

    private func end(_ s: inout StripeSimulatorState, _ id: String, at instant: Instant, reason: String) {
        guard var sub = s.subscriptions[id] else { return }
        sub.status = "canceled"; sub.endedAt = instant; sub.canceledAt = sub.canceledAt ?? instant; sub.reason = reason
        s.subscriptions[id] = sub
        emit(&s, "customer.subscription.deleted", render(s).subscription(sub))
    }

    private func latestCharge(_ s: StripeSimulatorState, _ subscription: String) -> String? {
        s.invoiceOrder.reversed().compactMap { s.invoices[$0] }.first { $0.subscription == subscription && $0.charge != nil }?.charge
    }
}

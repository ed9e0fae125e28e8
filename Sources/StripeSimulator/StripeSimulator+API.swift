import StripeKit
import Wire

/// The simulated account answers the gateway's reads as Stripe's API would, in `apiShape`.
extension StripeSimulator {
    /// The object's JSON as the API renders it (also served over HTTP by the simulator's server).
    func answer<T>(_ make: (StripeFields) throws(StripeParseError) -> T, _ render: (StripeSimulatorState, StripeRendering) -> JSONValue?,
                   missing: String) throws(StripeAPIFailure) -> T {
        let rendered = state.withLock { s in render(s, self.render(s, shape: apiShape)) }
        guard let rendered else { throw .notFound(missing) }
        do { return try make(StripeFields.parse(rendered.serializedBytes)) } catch {
            throw .unavailable("the simulator rendered an unreadable \(missing): \(error)")
        }
    }

    public func subscription(_ id: String) throws(StripeAPIFailure) -> StripeSubscription {
        try answer(StripeSubscription.init, { s, r in s.subscriptions[id].map(r.subscription) }, missing: id)
    }

    public func invoice(_ id: String) throws(StripeAPIFailure) -> StripeInvoice {
        var invoice = try answer(StripeInvoice.init, { s, r in s.invoices[id].map(r.invoice) }, missing: id)
        if invoice.linesHaveMore {
            invoice.lines = try allLines(id)
            invoice.linesHaveMore = false
        }
        return invoice
    }

    /// `GET /v1/invoices/{id}/lines`, every page.
    func allLines(_ id: String) throws(StripeAPIFailure) -> [StripeInvoiceLine] {
        let lines = state.withLock { s in s.invoices[id].map { inv in inv.lines.map { self.render(s, shape: apiShape).line($0) } } }
        guard let lines else { throw .notFound(id) }
        var out: [StripeInvoiceLine] = []
        for line in lines {
            do { out.append(try StripeInvoiceLine(StripeFields.parse(line.serializedBytes))) } catch {
                throw .unavailable("unreadable line: \(error)")
            }
        }
        return out
    }

    public func paidInvoices(subscription: String) throws(StripeAPIFailure) -> [StripeInvoice] {
        let ids = state.withLock { s in s.invoiceOrder.filter { s.invoices[$0]?.subscription == subscription && s.invoices[$0]?.status == "paid" } }
        var out: [StripeInvoice] = []
        for id in ids { out.append(try invoice(id)) }
        return out
    }

    public func charge(_ id: String) throws(StripeAPIFailure) -> StripeCharge {
        try answer(StripeCharge.init, { s, r in s.charges[id].map(r.charge) }, missing: id)
    }

    public func invoiceId(paidBy paymentIntent: String) throws(StripeAPIFailure) -> String? {
        state.withLock { s in s.charges.values.first { $0.paymentIntent == paymentIntent }?.invoice }
    }

    public func customer(_ id: String) throws(StripeAPIFailure) -> StripeCustomer {
        try answer(StripeCustomer.init, { s, r in s.customers[id].map { r.customer(id, metadata: $0) } }, missing: id)
    }

    public func events(createdFrom start: Instant, before end: Instant) throws(StripeAPIFailure) -> [StripeEvent] {
        let bodies = state.withLock { s in s.events.filter { $0.created >= start && $0.created < end }.map(\.body) }
        var out: [StripeEvent] = []
        for body in bodies {
            do { out.append(try StripeEvent.parse(body)) } catch { throw .unavailable("unreadable event: \(error)") }
        }
        return out
    }
}

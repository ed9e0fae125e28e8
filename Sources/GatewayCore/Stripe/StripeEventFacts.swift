import Entitle
import GatewayStore
import IssueCatalog
import StripeKit
import Wire

/// What one Stripe event says, as store-neutral facts (E23): the event's own object first, and
/// from Stripe's API whatever the event refers to that the gateway does not hold yet, so that
/// events taken in any order give the same facts (E1). Blocking (it may call Stripe): workers only.
struct StripeEventFacts {
    let api: (any StripeAPI)?
    let store: any GatewayStore
    let accountKey: String
    let now: Instant

    /// The facts of `event`; nil for a type the gateway does not take (answered 200, ignored).
    func facts(for event: StripeEvent) throws(StripeFactError) -> VerifiedFacts? {
        switch event.type {
        case "invoice.paid", "invoice.payment_succeeded":
            return try paid(parsed(StripeInvoice.init, event.object), event: event)
        case "invoice.voided", "invoice.marked_uncollectible", "invoice.payment_failed":
            // E26: such an invoice entitles nothing; the subscription's own events carry its state.
            return VerifiedFacts()
        case "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted",
             "customer.subscription.paused", "customer.subscription.resumed":
            return try subscription(parsed(StripeSubscription.init, event.object), at: event.created)
        case "charge.refunded":
            return try refunded(parsed(StripeCharge.init, event.object), at: event.created)
        case "refund.created", "refund.updated":
            guard let charge = try parsed(StripeRefund.init, event.object).charge else { return VerifiedFacts() }
            return try refunded(call { (api) throws(StripeAPIFailure) in try api.charge(charge) }, at: event.created)
        case "charge.dispute.created", "charge.dispute.updated", "charge.dispute.closed",
             "charge.dispute.funds_withdrawn", "charge.dispute.funds_reinstated":
            return try disputed(parsed(StripeDispute.init, event.object), at: event.created)
        case "checkout.session.completed":
            return try checkout(parsed(StripeCheckoutSession.init, event.object))
        default:
            return nil
        }
    }

    // MARK: Invoices (E26)

    private func paid(_ invoice: StripeInvoice, event: StripeEvent) throws(StripeFactError) -> VerifiedFacts {
        var invoice = invoice
        if invoice.linesHaveMore { invoice = try call { (api) throws(StripeAPIFailure) in try api.invoice(invoice.id) } }
        var facts = VerifiedFacts(transactions: StripeFacts.transactions(of: invoice, source: .stripeEvent, paidAtFallback: event.created))
        let environment = StripeFacts.environment(livemode: invoice.livemode)
        // A subscription's invoice is owned with the subscription; a one-off one by itself (E4).
        let key = SubscriptionKey(store: .stripe, environment: environment, originalTransactionId: invoice.subscription ?? invoice.id)
        if let customer = invoice.customer { facts.customers[key] = customer }
        if let subscription = invoice.subscription {
            if let named = StripeFacts.namedAccount(metadata: invoice.subscriptionMetadata, key: accountKey) {
                facts.namedOwners[key] = named
            }
            // A subscription not seen yet, or one that has ended (a line paid late may have to be cut,
            // E24): its state and its owner come from Stripe (E1).
            if api != nil, try unknownOrEnded(key) {
                let current = try call { (api) throws(StripeAPIFailure) in try api.subscription(subscription) }
                facts.append(try subscriptionFacts(current, source: .stripeApi, observedAt: now, withInvoices: false,
                                                   alsoPaid: facts.transactions))
            }
        } else if let customer = invoice.customer {
            try nameOwner(key, customer: customer, into: &facts)
        }
        return facts
    }

    /// No renewal info yet, or one that says the subscription ended.
    private func unknownOrEnded(_ key: SubscriptionKey) throws(StripeFactError) -> Bool {
        guard let known = try read({ () throws(StoreError) in try store.renewalInfo(key) }) else { return true }
        return known.expirationIntent != nil
    }

    // MARK: Subscriptions

    private func subscription(_ subscription: StripeSubscription, at created: Instant) throws(StripeFactError) -> VerifiedFacts {
        let key = Self.key(subscription)
        // Two snapshots of one subscription within one second cannot be ordered: ask Stripe (stripe.md, Decisions).
        if api != nil, let stored = try read({ () throws(StoreError) in try store.renewalInfo(key) }),
           stored.observedAt == created, stored.source == .stripeEvent {
            let current = try call { (api) throws(StripeAPIFailure) in try api.subscription(subscription.id) }
            return try subscriptionFacts(current, source: .stripeApi, observedAt: now, withInvoices: true)
        }
        return try subscriptionFacts(subscription, source: .stripeEvent, observedAt: created, withInvoices: true)
    }

    /// The renewal info, the owner it names and, for a subscription whose invoices the gateway has
    /// not seen (an event before its `invoice.paid`), its paid invoices from Stripe.
    /// `alsoPaid`: lines the caller is about to store with these facts (an ended subscription cuts them too).
    private func subscriptionFacts(_ subscription: StripeSubscription, source: TransactionSource, observedAt: Instant,
                                   withInvoices: Bool, alsoPaid: [Transaction] = []) throws(StripeFactError) -> VerifiedFacts {
        let key = Self.key(subscription)
        let stored = try read { () throws(StoreError) in try store.transactions(ofSubscription: key) }
        var pausedAt: Instant?
        if subscription.status == .paused {
            // E27: from the pause (kept as first seen), or the end of the last paid line if later.
            let seen = try read { () throws(StoreError) in try store.renewalInfo(key) }?.pausedAt
            let lastPaid = stored.filter { $0.revocationDate == nil }.compactMap(\.expiresDate).max()
            pausedAt = seen ?? max(observedAt, lastPaid ?? observedAt)
        }
        var facts = VerifiedFacts(renewals: [StripeFacts.renewal(of: subscription, source: source, observedAt: observedAt,
                                                                 pausedAt: pausedAt)])
        if let customer = subscription.customer { facts.customers[key] = customer }
        if let named = StripeFacts.namedAccount(metadata: subscription.metadata, key: accountKey) {
            facts.namedOwners[key] = named
        } else if let customer = subscription.customer {
            try nameOwner(key, customer: customer, into: &facts)
        }
        if withInvoices, api != nil, stored.isEmpty {
            for invoice in try call({ (api) throws(StripeAPIFailure) in try api.paidInvoices(subscription: subscription.id) }) {
                facts.transactions += StripeFacts.transactions(of: invoice, source: .stripeApi, paidAtFallback: observedAt,
                                                               trialEnd: subscription.trialEnd)
            }
        }
        if let endedAt = subscription.endedAt {
            // E24: ended before a paid line's period ended: that line is cut at `ended_at`.
            facts.transactions += StripeFacts.cut(stored + alsoPaid + facts.transactions, endedAt: endedAt,
                                                  reason: subscription.cancellationReason, source: source)
        }
        return facts
    }

    /// A subscription as Stripe holds it now, with every paid invoice (a refresh, E1: the same
    /// facts the events brought, so nothing is counted twice).
    func current(_ id: String) throws(StripeFactError) -> VerifiedFacts {
        let subscription = try call { (api) throws(StripeAPIFailure) in try api.subscription(id) }
        var paid: [Transaction] = []
        for invoice in try call({ (api) throws(StripeAPIFailure) in try api.paidInvoices(subscription: id) }) {
            paid += StripeFacts.transactions(of: invoice, source: .stripeApi, paidAtFallback: now, trialEnd: subscription.trialEnd)
        }
        var facts = try subscriptionFacts(subscription, source: .stripeApi, observedAt: now, withInvoices: false, alsoPaid: paid)
        facts.transactions = paid + facts.transactions
        return facts
    }

    /// The customer's metadata names the owner when nothing else did and nobody owns it yet.
    private func nameOwner(_ key: SubscriptionKey, customer: String, into facts: inout VerifiedFacts) throws(StripeFactError) {
        guard api != nil, try read({ () throws(StoreError) in try store.owner(of: key) }) == nil else { return }
        let found = try call { (api) throws(StripeAPIFailure) in try api.customer(customer) }
        if let named = StripeFacts.namedAccount(metadata: found.metadata, key: accountKey) { facts.namedOwners[key] = named }
    }

    // MARK: Refunds and disputes (E24)

    /// A charge refunded in full voids the invoice it paid (E6); a partial refund changes nothing.
    private func refunded(_ charge: StripeCharge, at created: Instant) throws(StripeFactError) -> VerifiedFacts {
        guard charge.amountRefunded > 0 else { return VerifiedFacts() }
        let paid = try paidLines(of: charge)
        guard charge.refunded, charge.amountRefunded >= charge.amount else {
            return VerifiedFacts(transactions: StripeFacts.partiallyRefunded(paid, charge: charge, at: created, source: .stripeEvent))
        }
        return VerifiedFacts(transactions: StripeFacts.voided(paid, at: created, source: .stripeEvent))
    }

    /// `lost` voids, `won` restores exactly what was voided; open disputes change nothing.
    private func disputed(_ dispute: StripeDispute, at created: Instant) throws(StripeFactError) -> VerifiedFacts {
        guard dispute.status == "lost" || dispute.status == "won" else { return VerifiedFacts() }
        let charge = try call { (api) throws(StripeAPIFailure) in try api.charge(dispute.charge) }
        let paid = try paidLines(of: charge)
        guard dispute.status == "won" else { return VerifiedFacts(transactions: StripeFacts.voided(paid, at: created, source: .stripeEvent)) }
        // E24: what a cancellation cut before the dispute stays cut; Stripe says when each
        // subscription behind the lines ended.
        var ended: [String: (at: Instant, reason: String?)] = [:]
        for id in Set(paid.filter { $0.expiresDate != nil }.map(\.originalTransactionId)) {
            let subscription = try call { (api) throws(StripeAPIFailure) in try api.subscription(id) }
            if let endedAt = subscription.endedAt { ended[id] = (endedAt, subscription.cancellationReason) }
        }
        return VerifiedFacts(transactions: StripeFacts.restored(paid, at: created, source: .stripeEvent, ended: ended))
    }

    /// The paid lines of the invoice a charge paid: stored, else from Stripe.
    private func paidLines(of charge: StripeCharge) throws(StripeFactError) -> [Transaction] {
        var invoiceId = charge.invoice
        if invoiceId == nil, let intent = charge.paymentIntent {
            invoiceId = try call { (api) throws(StripeAPIFailure) in try api.invoiceId(paidBy: intent) }
        }
        guard let invoiceId else { return [] }
        let environment = StripeFacts.environment(livemode: charge.livemode)
        let stored = try read { () throws(StoreError) in try store.transactions(stripeInvoice: invoiceId, environment: environment) }
        if !stored.isEmpty { return stored }
        let invoice = try call { (api) throws(StripeAPIFailure) in try api.invoice(invoiceId) }
        return StripeFacts.transactions(of: invoice, source: .stripeApi, paidAtFallback: now)
    }

    // MARK: Checkout (E4)

    private func checkout(_ session: StripeCheckoutSession) throws(StripeFactError) -> VerifiedFacts {
        var facts = VerifiedFacts()
        guard let named = StripeFacts.namedAccount(clientReferenceId: session.clientReferenceId, metadata: session.metadata,
                                                   key: accountKey) else { return facts }
        let environment = StripeFacts.environment(livemode: session.livemode)
        // A subscription, or a one-off purchase owned by its invoice.
        for id in [session.subscription, session.invoice].compactMap({ $0 }) {
            facts.namedOwners[SubscriptionKey(store: .stripe, environment: environment, originalTransactionId: id)] = named
        }
        return facts
    }

    // MARK: Support

    static func key(_ subscription: StripeSubscription) -> SubscriptionKey {
        SubscriptionKey(store: .stripe, environment: StripeFacts.environment(livemode: subscription.livemode),
                        originalTransactionId: subscription.id)
    }

    private func parsed<T>(_ make: (StripeFields) throws(StripeParseError) -> T, _ fields: StripeFields) throws(StripeFactError) -> T {
        do { return try make(fields) } catch { throw .malformed(error) }
    }

    private func call<T>(_ body: (any StripeAPI) throws(StripeAPIFailure) -> T) throws(StripeFactError) -> T {
        guard let api else { throw .api(.unavailable("no Stripe API key is configured")) }
        do { return try body(api) } catch { throw .api(error) }
    }

    private func read<T>(_ body: () throws(StoreError) -> T) throws(StripeFactError) -> T {
        do { return try body() } catch { throw .store(error) }
    }
}

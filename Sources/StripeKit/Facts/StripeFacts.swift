import Entitle
import IssueCatalog
import Wire

/// Stripe's objects as store-neutral facts (E23; stripe.md, Mapping to our model). Pure.
public enum StripeFacts {
    /// `livemode` false is Stripe's test mode: the sandbox (E3).
    public static func environment(livemode: Bool) -> StoreEnvironment { livemode ? .production : .sandbox }

    /// E26: every line of a **paid** invoice that bills a subscription entitles its own
    /// `[period.start, period.end)` (a $0 trial line too, offer .1); the invoice's own
    /// `period_start`/`period_end` describe the previous period and are never read. A line with no
    /// subscription and a price is a one-off purchase (a single issue, E14, when its price maps to
    /// an `issue` product). Credit lines (negative amounts: the unused time a plan change gives
    /// back) pay for nothing. Open, void and uncollectible invoices entitle nothing.
    ///
    /// A paid description is observed at the instant the invoice was paid, whatever path brought
    /// it (event or API), so two descriptions of one payment are equal (E1), and a refund or a
    /// dispute, which come after the payment, are newer than it.
    public static func transactions(of invoice: StripeInvoice, source: TransactionSource, paidAtFallback: Instant,
                                    trialEnd: Instant? = nil) -> [Transaction] {
        guard invoice.isPaid else { return [] }
        let environment = environment(livemode: invoice.livemode)
        let paidAt = invoice.paidAt ?? paidAtFallback
        var out: [Transaction] = []
        for line in invoice.lines {
            guard let price = line.price, line.amount >= 0 else { continue }
            let id = transactionId(invoice: invoice.id, line: line.id)
            if let subscription = line.subscription ?? (line.subscriptionItem != nil ? invoice.subscription : nil) {
                let trial = line.amount == 0 && (line.isTrialDescription || trialEnd == line.periodEnd)
                out.append(Transaction(store: .stripe, environment: environment, transactionId: id,
                                       originalTransactionId: subscription, productId: price,
                                       purchaseDate: line.periodStart, expiresDate: line.periodEnd,
                                       offer: trial ? .freeTrial : nil, source: source, observedAt: paidAt))
            } else {
                // A one-off purchase is owned by its invoice: one payment, one owner (E4).
                out.append(Transaction(store: .stripe, environment: environment, transactionId: id,
                                       originalTransactionId: invoice.id, productId: price, purchaseDate: paidAt,
                                       source: source, observedAt: paidAt))
            }
        }
        return out
    }

    /// E1's identity of a line: `invoiceId/lineId` (E23).
    public static func transactionId(invoice: String, line: String) -> String { invoice + "/" + line }

    /// The invoice a transaction id names.
    public static func invoiceId(ofTransaction id: String) -> String? {
        id.firstIndex(of: "/").map { String(id[..<$0]) }
    }

    /// E24/E6: the invoice's lines voided, as of `at` (a full refund of the payment behind the
    /// invoice, or a lost dispute), a description observed at `at`.
    public static func voided(_ paid: [Transaction], at: Instant, source: TransactionSource) -> [Transaction] {
        paid.map { t in
            var t = t
            t.revocationDate = at; t.revocationReason = 0; t.revocationKind = .void; t.revocationPercentage = nil
            t.source = source; t.observedAt = at
            return t
        }
    }

    /// E24: a charge refunded in part is recorded (its share, thousandths of a percent, on the
    /// invoice's lines) and changes no entitlement.
    public static func partiallyRefunded(_ paid: [Transaction], charge: StripeCharge, at: Instant,
                                         source: TransactionSource) -> [Transaction] {
        guard charge.amount > 0, charge.amountRefunded > 0 else { return [] }
        let share = Int(min(100_000, charge.amountRefunded * 100_000 / charge.amount))
        return paid.map { t in
            var t = t
            t.revocationDate = nil; t.revocationReason = nil; t.revocationKind = nil; t.revocationPercentage = share
            t.source = source; t.observedAt = at
            return t
        }
    }

    /// E24: a subscription that ended (`ended_at`) before a paid line's period ended cuts that
    /// line at `ended_at`: `canceledByReader` when the reader asked (`cancellation_requested`),
    /// `canceledOther` otherwise. Nothing was refunded.
    ///
    /// The cut is described as observed one millisecond after the line was paid: newer than the
    /// payment, older than any refund or dispute of it (which come later still), so a void wins over
    /// a cut and a cut over the plain payment whatever order they arrive in (E1).
    public static func cut(_ paid: [Transaction], endedAt: Instant, reason: String?, source: TransactionSource) -> [Transaction] {
        paid.compactMap { t in
            guard t.revocationDate == nil, var t = cutting(t, endedAt: endedAt, reason: reason) else { return nil }
            t.source = source; t.observedAt = (t.observedAt ?? t.purchaseDate).adding(milliseconds: 1)
            return t
        }
    }

    /// A paid line cut at `endedAt` when its period runs past it (nil when the end leaves it whole).
    static func cutting(_ t: Transaction, endedAt: Instant, reason: String?) -> Transaction? {
        guard t.expiresDate.map({ $0 > endedAt }) == true, t.purchaseDate < endedAt else { return nil }
        var t = t
        t.revocationDate = endedAt; t.revocationReason = nil; t.revocationPercentage = nil
        t.revocationKind = reason == "cancellation_requested" ? .canceledByReader : .canceledOther
        return t
    }

    /// E24: a reversal (a dispute won) restores exactly what was voided: the paid lines as they
    /// were before the void, described at `at`, after the void. A line whose subscription ended
    /// before its period did (`ended`: `ended_at` and the reason, by subscription id) was cut, not
    /// whole, before the void: it is restored cut.
    ///
    /// Described one millisecond after `at`: a dispute is won only after it was lost (an appeal),
    /// so a won and a lost description of the same second order the win last (E1).
    public static func restored(_ paid: [Transaction], at: Instant, source: TransactionSource,
                                ended: [String: (at: Instant, reason: String?)] = [:]) -> [Transaction] {
        paid.map { t in
            var t = t
            t.revocationDate = nil; t.revocationReason = nil; t.revocationKind = nil; t.revocationPercentage = nil
            if let end = ended[t.originalTransactionId], let cut = cutting(t, endedAt: end.at, reason: end.reason) {
                t = cut
            }
            t.source = source; t.observedAt = at.adding(milliseconds: 1)
            return t
        }
    }

    /// The subscription as renewal info (stripe.md, Decisions): `cancel_at_period_end` (or a
    /// `cancel_at`) is auto-renew off, `past_due` is billing retry (E9, with the gateway's grace,
    /// E8), and an ended subscription's `cancellation_details.reason` is its expiration intent:
    /// `cancellation_requested` voluntary, `payment_failed` billing, anything else other (a
    /// disputed payment is revoked by the lost dispute's void, E6). `unpaid` (retries exhausted,
    /// not served) is expired for billing.
    ///
    /// E27: a `paused` subscription is paused from `pausedAt` (the caller's: the pause event's
    /// `created`, or the end of the last paid line if later) until a snapshot says otherwise.
    public static func renewal(of subscription: StripeSubscription, source: TransactionSource, observedAt: Instant,
                               pausedAt: Instant? = nil) -> RenewalInfo {
        let ended: Bool
        switch subscription.status {
        case .canceled, .incompleteExpired, .unpaid: ended = true
        case .incomplete, .trialing, .active, .pastDue, .paused: ended = false
        }
        var intent: ExpirationIntent?
        if subscription.status == .unpaid {
            intent = .billing
        } else if ended {
            switch subscription.cancellationReason {
            case "cancellation_requested": intent = .voluntary
            case "payment_failed": intent = .billing
            default: intent = .other
            }
        }
        let renews = !ended && !subscription.cancelAtPeriodEnd && subscription.cancelAt == nil
        return RenewalInfo(store: .stripe, environment: environment(livemode: subscription.livemode),
                           originalTransactionId: subscription.id, productId: subscription.price, autoRenewStatus: renews,
                           autoRenewProductId: subscription.price, expirationIntent: intent,
                           isInBillingRetry: subscription.status == .pastDue,
                           pausedAt: subscription.status == .paused ? (pausedAt ?? observedAt) : nil,
                           source: source, observedAt: observedAt)
    }

    /// The account a Stripe object names (stripe.md, Decisions): `client_reference_id` first, then
    /// the configured metadata key.
    public static func namedAccount(clientReferenceId: String? = nil, metadata: [String: String], key: String) -> String? {
        if let id = clientReferenceId, !id.isEmpty { return id }
        if let id = metadata[key], !id.isEmpty { return id }
        return nil
    }
}

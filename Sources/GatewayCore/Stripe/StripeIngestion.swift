import Entitle
import GatewayCrypto
import GatewayStore
import StripeKit
import Wire

/// Takes Stripe's webhook events (http-api.md, `POST /v1/stripe/webhooks`): the signature first
/// (E2), then the event's facts (`StripeEventFacts`), stored for their owners in one unit of
/// work with the event id, so an event taken twice changes nothing and one whose facts could not
/// be stored is taken when Stripe retries. Blocking when a fact needs Stripe's API: the Stripe pool.
package final class StripeIngestion: Sendable {
    private let verifier: StripeSignatureVerifier
    package let api: (any StripeAPI)?
    private let accountKey: String
    private let intake: FactIntake
    private let counters: StripeCounters

    package init(settings: StripeSettings, api: (any StripeAPI)?, intake: FactIntake, counters: StripeCounters)
        throws(CryptoError) {
        verifier = try StripeSignatureVerifier(secrets: settings.webhookSecrets)
        self.api = api; accountKey = settings.accountKey; self.intake = intake; self.counters = counters
    }

    private var store: any GatewayStore { intake.store }
    private var now: Instant { intake.clock.now() }

    /// The event id as the dedupe table holds it: apart from Apple's notification UUIDs.
    static func dedupeKey(_ eventId: String) -> String { "stripe:" + eventId }

    /// `unauthorized` before anything is read when the signature fails; `invalid` for a body
    /// that is not an event; `storeUnavailable` when a fact needs Stripe's API and it cannot be reached. Nothing is stored then.
    package func takeWebhook(signature: String?, body: [UInt8]) throws(GatewayError) {
        do { try verifier.verify(header: signature, body: body, now: now) } catch {
            throw .unauthorized("the Stripe-Signature was refused: \(error)")
        }
        let event: StripeEvent
        do { event = try StripeEvent.parse(body) } catch { throw .invalid("malformed Stripe event: \(error)") }
        try take(event)
    }

    /// What a refresh asks Stripe about among an account's `subscriptions`: its Stripe
    /// subscriptions, none without an API key (nothing to ask).
    package func refreshable(_ subscriptions: [SubscriptionKey]) -> [SubscriptionKey] {
        guard api != nil else { return [] }
        return subscriptions.filter { $0.store == .stripe && $0.originalTransactionId.hasPrefix("sub_") }
    }

    /// `POST /v1/accounts/{id}/refresh`: the account's Stripe subscriptions (`refreshable`), as
    /// Stripe's API answers now. Refunds and disputes come from their events (and a backfill),
    /// not from a refresh.
    package func refresh(_ keys: [SubscriptionKey]) throws(GatewayError) {
        guard api != nil, !keys.isEmpty else { return }
        let reader = StripeEventFacts(api: api, store: store, accountKey: accountKey, now: now)
        var facts = VerifiedFacts()
        do {
            for key in keys { facts.append(try reader.current(key.originalTransactionId)) }
        } catch {
            throw error.gatewayError
        }
        try intake.saveForOwners(facts, source: .stripeApi)
    }

    /// Stripe keeps 30 days of events (stripe.md, Calling Stripe).
    package static let backfillDays: Int64 = 30

    /// `POST /v1/stripe/backfill`: Stripe's events created in `[start, end)` taken again, oldest
    /// first, each deduplicated by its id as a webhook is (events seen before change nothing).
    /// Returns how many were listed. `notConfigured` without an API key (only an operator
    /// can help, as for the App Store's backfill); `storeUnavailable` when Stripe cannot be asked now.
    package func backfill(start: Instant, end: Instant) throws(GatewayError) -> Int {
        guard let api else {
            throw .notConfigured("no Stripe API key is configured (ISSUE_GATEWAY_STRIPE_API_KEY)")
        }
        let events: [StripeEvent]
        do { events = try api.events(createdFrom: start, before: end) } catch { throw StripeFactError.api(error).gatewayError }
        for event in events { try take(event) }
        return events.count
    }

    /// One verified event (a webhook, or one listed by Stripe's API for a backfill).
    package func take(_ event: StripeEvent) throws(GatewayError) {
        let gathered: VerifiedFacts?
        do {
            gathered = try StripeEventFacts(api: api, store: store, accountKey: accountKey, now: now).facts(for: event)
        } catch {
            throw error.gatewayError
        }
        guard let facts = gathered else {
            counters.ignored.increment()
            return
        }
        let result = try intake.saveForOwners(facts, notificationUUID: Self.dedupeKey(event.id), source: .stripeEvent)
        (result.duplicateNotification ? counters.duplicate : counters.taken).increment()
    }
}

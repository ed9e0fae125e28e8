import GatewayCore
import HTTPServer
import StripeKit
import Wire

/// Stripe (http-api.md, Google Play and Stripe): its signed webhook events. An event that needs
/// Stripe's API waits on the Stripe pool, so slow answers from Stripe never hold the store's threads.
package struct StripeController: APIController {
    private let access: Access
    private let stripe: StripeIngestion
    private let limits: APILimits
    private let clock: any GatewayClock

    package init(access: Access, stripe: StripeIngestion, limits: APILimits, clock: any GatewayClock) {
        self.access = access; self.stripe = stripe; self.limits = limits; self.clock = clock
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/stripe/webhooks", execution: stripe.api == nil ? .store : .stripe,
                   maxBodyBytes: limits.notificationBodyBytes, route: { [stripe] context throws(GatewayError) in
            // The signature covers the raw bytes: the body is verified before it is parsed.
            try stripe.takeWebhook(signature: context.request.header("Stripe-Signature"), body: context.request.body)
            return .json(200, Array(#"{"status":"taken"}"#.utf8))
        })
        // Replayed before the answer, on the Stripe pool: the window is at most 30 days of
        // events, each taken as a webhook would be.
        router.add("POST", "/v1/stripe/backfill", execution: .stripe, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let body = try RequestBody(context.request)
            let window = try BackfillWindow(body, now: clock.now(), keptDays: StripeIngestion.backfillDays,
                                            kept: "Stripe keeps \(StripeIngestion.backfillDays) days of events")
            let replayed = try stripe.backfill(start: window.start, end: window.end)
            return window.accepted { w in w.field("events", replayed) }
        })
    }
}

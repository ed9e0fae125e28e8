import GatewayCore
import HTTPServer
import StripeKit

/// Stripe (http-api.md, Google Play and Stripe): its signed webhook events. An event that needs
/// Stripe's API waits on the Stripe pool, so slow answers from Stripe never hold the store's threads.
package struct StripeController: APIController {
    private let stripe: StripeIngestion
    private let limits: APILimits

    package init(stripe: StripeIngestion, limits: APILimits) {
        self.stripe = stripe; self.limits = limits
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/stripe/webhooks", execution: stripe.api == nil ? .store : .stripe,
                   maxBodyBytes: limits.notificationBodyBytes, route: { [stripe] context throws(APIError) in
            // The signature covers the raw bytes: the body is verified before it is parsed.
            try stripe.takeWebhook(signature: context.request.header("Stripe-Signature"), body: context.request.body)
            return .json(200, Array(#"{"status":"taken"}"#.utf8))
        })
    }
}

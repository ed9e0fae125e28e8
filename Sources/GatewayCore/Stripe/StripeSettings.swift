/// How the gateway meets Stripe (http-api.md, configuration: `ISSUE_GATEWAY_STRIPE_*`).
package struct StripeSettings: Sendable {
    /// `whsec_…` endpoint secrets; any may verify. Empty: every webhook is refused (`unauthorized`).
    package var webhookSecrets: [String]
    /// The metadata key (on the subscription, customer or Checkout Session) naming the account.
    package var accountKey: String

    package static let defaultAccountKey = "issue_gateway_account"

    package init(webhookSecrets: [String], accountKey: String = defaultAccountKey) {
        self.webhookSecrets = webhookSecrets; self.accountKey = accountKey
    }
}

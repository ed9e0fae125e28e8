import GatewayCore

/// Stripe's settings (http-api.md, configuration: `ISSUE_GATEWAY_STRIPE_*`). Without webhook
/// secrets every webhook is refused; without an API key nothing asks Stripe, and an event that
/// needs its API is answered 503.
public struct StripeConfiguration: Sendable, Equatable {
    /// A restricted read-only key (`rk_…`) or a secret key: the gateway only reads.
    public var apiKey: String?
    /// `whsec_…` endpoint secrets; any may verify (a rolled secret overlaps with its successor).
    public var webhookSecrets: [String] = []
    public var apiURL = "https://api.stripe.com"
    /// The pinned `Stripe-Version` of every call (stripe.md, Versions).
    public var apiVersion = "2025-03-31.basil"
    /// The metadata key naming the account; `client_reference_id` also does.
    public var accountKey = StripeSettings.defaultAccountKey
    /// The Stripe pool: threads that wait on Stripe's answers, and the requests queued for them.
    public var threads = 16
    public var queue = 256

    public init() {}

    package var settings: StripeSettings { StripeSettings(webhookSecrets: webhookSecrets, accountKey: accountKey) }

    /// `whsec_a,whsec_b`: comma-separated, blanks dropped, at least one.
    static func secrets(_ text: String) throws(SettingParsers.Invalid) -> [String] {
        let secrets = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !secrets.isEmpty else { throw SettingParsers.Invalid(message: "must name at least one secret") }
        return secrets
    }
}

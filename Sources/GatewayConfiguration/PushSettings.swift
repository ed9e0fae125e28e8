/// Settings of pushes to reader devices and webhooks to the publisher's backend (http-api.md,
/// Configuration). Either is off until its settings are given: then nothing is sent and
/// nothing is kept for it.
public struct PushSettings: Sendable, Equatable {
    public var apnsKeyId: String?
    public var apnsTeamId: String?
    /// Path of the `.p8` key (PKCS#8 PEM, P-256) that signs the provider tokens.
    public var apnsPrivateKeyPath: String?
    /// The app's bundle id, sent as `apns-topic`.
    public var apnsTopic: String?
    public var apnsURL = "https://api.push.apple.com"
    public var apnsSandboxURL = "https://api.sandbox.push.apple.com"
    /// A PEM file of certificates to trust for APNs instead of the system's: for tests and the
    /// benchmark's fake APNs only (`ISSUE_GATEWAY_APNS_CA_FILE`).
    public var apnsCAFile: String?
    public var webhookURL: String?
    public var webhookSecret: String?
    /// How long an event may keep failing before it is dead-lettered (Apple gives up on its own
    /// notifications after 72 hours; the same here).
    public var webhookDeadLetterAfterSeconds = 72 * 3600
    /// Deliverer threads: events of different accounts go out this many at once.
    public var webhookConcurrency = 4

    public init() {}

    /// All four APNs credentials are given.
    public var apnsConfigured: Bool {
        apnsKeyId != nil && apnsTeamId != nil && apnsPrivateKeyPath != nil && apnsTopic != nil
    }

    /// Some settings only make sense together: a partial APNs configuration or a webhook URL
    /// without its secret is refused rather than silently sending nothing.
    package func check() throws(ConfigurationError) {
        let apns = [("ISSUE_GATEWAY_APNS_KEY_ID", apnsKeyId), ("ISSUE_GATEWAY_APNS_TEAM_ID", apnsTeamId),
                    ("ISSUE_GATEWAY_APNS_PRIVATE_KEY", apnsPrivateKeyPath), ("ISSUE_GATEWAY_APNS_TOPIC", apnsTopic)]
        if apns.contains(where: { $0.1 != nil }), let missing = apns.first(where: { $0.1 == nil }) {
            throw ConfigurationError(setting: missing.0, message: "is needed with the other APNs settings")
        }
        if webhookURL != nil, webhookSecret == nil {
            throw ConfigurationError(setting: "ISSUE_GATEWAY_WEBHOOK_SECRET", message: "is needed with ISSUE_GATEWAY_WEBHOOK_URL")
        }
        if webhookSecret != nil, webhookURL == nil {
            throw ConfigurationError(setting: "ISSUE_GATEWAY_WEBHOOK_URL", message: "is needed with ISSUE_GATEWAY_WEBHOOK_SECRET")
        }
    }
}

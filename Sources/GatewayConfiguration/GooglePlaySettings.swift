import Foundation
import GatewayCore
import GooglePlayKit
import OpenIDConnect

/// Google Play's settings (http-api.md, Configuration: `ISSUE_GATEWAY_GOOGLE_*`). Google Play is off
/// until packages are given; pushes are refused until an audience and an email are given.
public struct GooglePlaySettings: Sendable, Equatable {
    public var packages: [String] = []
    /// Path of the service account's JSON key.
    public var serviceAccountPath: String?
    public var apiURL = GooglePlayConfiguration.defaultAPIBaseURL.absoluteString
    public var pushAudience: String?
    public var pushEmail: String?
    public var certsURL = PushTokenPolicy.keysURL.absoluteString
    /// `projects/P/subscriptions/S` to pull notifications from; nil: no pull.
    public var pullSubscription: String?
    /// Pub/Sub's base URL; `PUBSUB_EMULATOR_HOST` (Google's convention) makes it the emulator's,
    /// which takes no credentials.
    public var pubSubURL = PubSubPullClient.defaultBaseURL.absoluteString
    public var pubSubEmulator = false
    /// The Google Play worker pool: threads mostly wait on Google (a call may take its 25 s
    /// deadline), so they are cheap waiters, as for Apple.
    public var threads = 16
    public var queue = 256

    public init() {}

    /// Some settings only make sense together.
    package func check() throws(ConfigurationError) {
        if !packages.isEmpty, serviceAccountPath == nil {
            throw ConfigurationError(setting: "ISSUE_GATEWAY_GOOGLE_SERVICE_ACCOUNT", message: "is needed with ISSUE_GATEWAY_GOOGLE_PACKAGES")
        }
        if (pushAudience == nil) != (pushEmail == nil) {
            throw ConfigurationError(setting: pushAudience == nil ? "ISSUE_GATEWAY_GOOGLE_PUSH_AUDIENCE" : "ISSUE_GATEWAY_GOOGLE_PUSH_EMAIL",
                                     message: "is needed with the other Google push setting")
        }
    }

    /// The services these settings name; nil when Google Play is off. The key file is read and
    /// checked here, so a wrong key stops the gateway at start with the setting's name.
    package func services(clock: any GatewayClock,
                          observe: @escaping @Sendable (GooglePlayAttempt) -> Void = { _ in }) throws(StartError) -> GooglePlayServices? {
        guard !packages.isEmpty, let serviceAccountPath else { return nil }
        let key: ServiceAccountKey
        do { key = try ServiceAccountKey.load(path: serviceAccountPath) } catch {
            throw StartError(description: "ISSUE_GATEWAY_GOOGLE_SERVICE_ACCOUNT \(error)")
        }
        guard let api = URL(string: apiURL), let certs = URL(string: certsURL) else {
            throw StartError(description: "ISSUE_GATEWAY_GOOGLE_API_URL and _CERTS_URL must be URLs")
        }
        let client = GooglePlayClient(configuration: GooglePlayConfiguration(apiBaseURL: api), key: key,
                                      clock: { clock.now() }, observe: observe)
        let push = pushAudience.flatMap { audience in
            pushEmail.map { PushTokenVerifier(policy: PushTokenPolicy(audience: audience, email: $0), keys: KeptKeySet(url: certs)) }
        }
        var pull: PubSubPullClient?
        if let pullSubscription {
            guard let base = URL(string: pubSubURL) else { throw StartError(description: "ISSUE_GATEWAY_GOOGLE_PUBSUB_URL must be a URL") }
            pull = PubSubPullClient(subscription: pullSubscription, baseURL: base, key: pubSubEmulator ? nil : key,
                                    clock: { clock.now() })
        }
        return GooglePlayServices(packages: Set(packages), client: client, push: push, pull: pull)
    }
}

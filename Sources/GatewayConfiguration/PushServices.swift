import Foundation
import GatewayCore
import GatewayPush
import Lifecycle
import OutboundHTTP

/// The background services for pushes and webhooks, built from the configuration: none without
/// APNs or webhook settings.
package enum PushServices {
    package static func make(_ delivery: DeliveryServices, configuration: PushSettings) throws(StartError) -> [any BackgroundService] {
        var services: [any BackgroundService] = []
        if let url = configuration.webhookURL.flatMap(URL.init(string:)), let secret = configuration.webhookSecret {
            var settings = WebhookSettings(url: url, secret: secret)
            settings.deadLetterAfter = .seconds(configuration.webhookDeadLetterAfterSeconds)
            settings.concurrency = configuration.webhookConcurrency
            do {
                // Each deliverer leases lane heads under its own name: one account's failing
                // receiver holds one of them at most. They share one kept session: one receiver.
                let transport = URLSessionExchange()
                for _ in 0..<settings.concurrency {
                    services.append(try WebhookDeliverer(settings: settings, store: delivery.store, clock: delivery.clock,
                                                         transport: transport, counters: delivery.counters))
                }
            } catch {
                throw StartError(description: "the webhook secret cannot be used: \(error)")
            }
        }
        if delivery.events.pushes {
            services.append(PushFanOut(delivery: delivery, sender: try apnsClient(configuration)))
        }
        if delivery.events.publicationEvents {
            do {
                services.append(try PublicationAnnouncer(store: delivery.store, clock: delivery.clock, policy: delivery.events,
                                                         counters: delivery.counters))
            } catch {
                throw StartError(description: "publication events could not be prepared: \(error)")
            }
        }
        return services
    }
}

extension PushServices {
    /// The largest `.p8` file read (Apple's are about 250 bytes).
    package static let maximumKeyFileBytes = 16 << 10

    /// Provider tokens are judged by Apple's clock, so they are stamped with the system's (never a
    /// test's clock). `adjust` lets tests shorten the backoff.
    package static func apnsClient(_ configuration: PushSettings, adjust: (inout APNsClient.Settings) -> Void = { _ in })
        throws(StartError) -> APNsClient {
        guard let path = configuration.apnsPrivateKeyPath, let keyId = configuration.apnsKeyId,
              let teamId = configuration.apnsTeamId, let topic = configuration.apnsTopic else {
            throw StartError(description: "APNs needs its key id, team id, private key and topic")
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= maximumKeyFileBytes else {
            throw StartError(description: "cannot read the APNs key \(path) (ISSUE_GATEWAY_APNS_PRIVATE_KEY)")
        }
        do {
            let token = try APNsProviderToken(keyPEM: String(decoding: data, as: UTF8.self), keyId: keyId, teamId: teamId)
            var settings = APNsClient.Settings(productionURL: configuration.apnsURL, sandboxURL: configuration.apnsSandboxURL,
                                               topic: topic)
            settings.http.caFile = configuration.apnsCAFile
            adjust(&settings)
            return APNsClient(settings: settings, token: token, clock: SystemClock())
        } catch {
            throw StartError(description: "\(error.description) (ISSUE_GATEWAY_APNS_PRIVATE_KEY \(path))")
        }
    }
}

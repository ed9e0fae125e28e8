import Foundation
import Lifecycle

/// The background services of issue #16, built from the configuration: none without APNs or
/// webhook settings.
enum PushServices {
    static func make(_ gateway: Gateway, configuration: PushSettings) throws(Gateway.StartError) -> [any BackgroundService] {
        var services: [any BackgroundService] = []
        if let url = configuration.webhookURL.flatMap(URL.init(string:)), let secret = configuration.webhookSecret {
            do {
                services.append(try WebhookDeliverer(settings: WebhookSettings(url: url, secret: secret), store: gateway.store,
                                                     clock: gateway.clock, counters: gateway.pushCounters))
            } catch {
                throw Gateway.StartError(description: "the webhook secret cannot be used: \(error)")
            }
        }
        if gateway.events.pushes {
            services.append(PushFanOut(gateway: gateway, sender: try apnsClient(configuration)))
        }
        if gateway.events.publicationEvents {
            do {
                services.append(try PublicationAnnouncer(store: gateway.store, clock: gateway.clock, policy: gateway.events,
                                                         counters: gateway.pushCounters))
            } catch {
                throw Gateway.StartError(description: "publication events could not be prepared: \(error)")
            }
        }
        return services
    }
}

extension PushServices {
    /// The largest `.p8` file read (Apple's are about 250 bytes).
    static let maximumKeyFileBytes = 16 << 10

    /// Provider tokens are judged by Apple's clock, so they are stamped with the system's (never a
    /// test's clock). `adjust` lets tests shorten the backoff.
    static func apnsClient(_ configuration: PushSettings, adjust: (inout APNsClient.Settings) -> Void = { _ in })
        throws(Gateway.StartError) -> APNsClient {
        guard let path = configuration.apnsPrivateKeyPath, let keyId = configuration.apnsKeyId,
              let teamId = configuration.apnsTeamId, let topic = configuration.apnsTopic else {
            throw Gateway.StartError(description: "APNs needs its key id, team id, private key and topic")
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= maximumKeyFileBytes else {
            throw Gateway.StartError(description: "cannot read the APNs key \(path) (ISSUE_GATEWAY_APNS_PRIVATE_KEY)")
        }
        do {
            let token = try APNsProviderToken(keyPEM: String(decoding: data, as: UTF8.self), keyId: keyId, teamId: teamId)
            var settings = APNsClient.Settings(productionURL: configuration.apnsURL, sandboxURL: configuration.apnsSandboxURL,
                                               topic: topic)
            settings.http.caFile = configuration.apnsCAFile
            adjust(&settings)
            return APNsClient(settings: settings, token: token, clock: SystemClock())
        } catch {
            throw Gateway.StartError(description: "\(error.description) (ISSUE_GATEWAY_APNS_PRIVATE_KEY \(path))")
        }
    }
}

extension Gateway {
    /// An issue stored as published now is announced at once, on the request's worker thread; a
    /// failure here is left to the announcer's next pass (the issue stays unannounced until then).
    func announceDuePublications() {
        guard events.publicationEvents,
              let announced = try? store.announceDueIssues(now: clock.now(), policy: events, limit: PublicationAnnouncer.batch)
        else { return }
        pushCounters.publicationsFired.increment(by: announced.count)
    }
}

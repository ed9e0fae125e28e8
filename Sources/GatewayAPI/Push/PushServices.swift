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

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
        return services
    }
}

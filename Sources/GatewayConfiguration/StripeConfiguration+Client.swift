import Foundation
import StripeKit

extension StripeConfiguration {
    /// The API client when a key is configured (nil: nothing asks Stripe), on a kept session of
    /// its own (`StripeClient`'s default transport), made once with the client.
    var client: StripeClient? {
        guard let apiKey, let base = URL(string: apiURL) else { return nil }
        return StripeClient(configuration: StripeClientConfiguration(baseURL: base, apiKey: apiKey, apiVersion: apiVersion))
    }
}

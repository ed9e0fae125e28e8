import AppStoreKit
import Foundation
import StripeKit

/// Stripe's GETs on the transport the App Store's Server API client uses (`URLSessionExchange`:
/// an exact deadline, a bounded body), so the gateway keeps one HTTP client; its own kept session,
/// made once with the client.
struct URLSessionStripeTransport: StripeTransport {
    private let exchange = URLSessionServerAPITransport()

    func get(_ url: URL, headers: [String: String], timeout: TimeInterval,
             maximumResponseBytes: Int) throws(StripeAPIError) -> StripeHTTPAnswer {
        do {
            let answer = try exchange.send(method: "GET", url: url, headers: headers, body: nil, timeout: timeout,
                                           maximumResponseBytes: maximumResponseBytes)
            return StripeHTTPAnswer(status: answer.statusCode, body: [UInt8](answer.body),
                                    retryAfterSeconds: answer.headers["retry-after"].flatMap { Int($0) })
        } catch {
            throw .unavailable("\(error)")
        }
    }
}

extension StripeConfiguration {
    /// The API client when a key is configured (nil: nothing asks Stripe).
    var client: StripeClient? {
        guard let apiKey, let base = URL(string: apiURL) else { return nil }
        return StripeClient(configuration: StripeClientConfiguration(baseURL: base, apiKey: apiKey, apiVersion: apiVersion),
                            transport: URLSessionStripeTransport())
    }
}

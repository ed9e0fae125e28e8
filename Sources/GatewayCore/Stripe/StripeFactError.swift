import GatewayStore
import StripeKit

/// Why the facts of a Stripe event could not be gathered, and what the sender hears.
enum StripeFactError: Error {
    /// The event's object is not what its type says (400: Stripe will not send it better).
    case malformed(StripeParseError)
    /// A fact needs Stripe's API and it gave no answer (503 with Retry-After: Stripe retries).
    case api(StripeAPIError)
    case store(StoreError)

    /// Seconds Stripe (or the operator) is asked to wait before trying again.
    static let retryAfterSeconds = 60

    var apiError: APIError {
        switch self {
        case .malformed(let error): return .badRequest("malformed Stripe object: \(error)")
        case .api(let error): return .storeUnavailable("Stripe: \(error)")
        case .store(let error): return APIError(error)
        }
    }
}

extension APIError {
    /// Google Play and Stripe's `app_store_unavailable` (http-api.md): 503, try again later.
    package static func storeUnavailable(_ message: String) -> APIError {
        APIError(status: 503, code: "store_unavailable", message: message,
                 headers: [("Retry-After", String(StripeFactError.retryAfterSeconds))])
    }
}

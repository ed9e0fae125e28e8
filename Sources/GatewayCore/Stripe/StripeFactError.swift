import GatewayStore
import StripeKit

/// Why the facts of a Stripe event could not be gathered, and what the sender hears.
enum StripeFactError: Error {
    /// The event's object is not what its type says (400: Stripe will not send it better).
    case malformed(StripeParseError)
    /// A fact needs Stripe's API and it gave no answer (503 with Retry-After: Stripe retries).
    case api(StripeAPIError)
    case store(StoreError)

    var apiError: APIError {
        switch self {
        case .malformed(let error): return .badRequest("malformed Stripe object: \(error)")
        case .api(let error): return .storeUnavailable("Stripe: \(error)", retryAfterSeconds: error.retryAfterSeconds)
        case .store(let error): return APIError(error)
        }
    }
}

import GatewayStore
import StripeKit

/// Why the facts of a Stripe event could not be gathered, and what the sender hears.
enum StripeFactError: Error {
    /// The event's object is not what its type says (Stripe will not send it better).
    case malformed(StripeParseError)
    /// A fact needs Stripe's API and it gave no answer (Stripe retries).
    case api(StripeAPIFailure)
    case store(StoreError)

    var gatewayError: GatewayError {
        switch self {
        case .malformed(let error): return .invalid("malformed Stripe object: \(error)")
        case .api(let error): return .storeUnavailable("Stripe: \(error)", retryAfterSeconds: error.retryAfterSeconds)
        case .store(let error): return GatewayError(error)
        }
    }
}

/// Why a `Stripe-Signature` header was refused. Every case is a 401 to the sender; the cases
/// only tell the log and the tests apart.
public enum StripeSignatureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No header, or no webhook secret is configured.
    case missing
    /// Not `t=<digits>,v1=<hex>…`, or too long.
    case malformed
    /// No `v1` equals the HMAC under any configured secret.
    case noMatch
    /// `t` is further than the tolerance from now (in the past or in the future).
    case outsideTolerance(secondsFromNow: Int64)

    public var description: String {
        switch self {
        case .missing: "no Stripe-Signature header"
        case .malformed: "a malformed Stripe-Signature header"
        case .noMatch: "no v1 signature matches the body under a configured secret"
        case .outsideTolerance(let seconds): "the signature's timestamp is \(seconds) s from now, outside the tolerance"
        }
    }
}

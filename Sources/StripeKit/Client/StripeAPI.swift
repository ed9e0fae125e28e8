import Wire

/// Why a call to Stripe's API gave no answer the gateway can use.
public enum StripeAPIFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not reachable, too slow, 429 or 5xx after the retries, or an answer that could not be read:
    /// trying again later may help (the webhook answers 503 so that Stripe retries); with the wait
    /// in seconds Stripe's last answer named (`Retry-After`), passed on to the gateway's caller.
    case unavailable(String, retryAfterSeconds: Int? = nil)
    /// 404: Stripe does not know the object.
    case notFound(String)
    /// 401/403 or another 4xx: the gateway's key or request is wrong; retrying will not help.
    case refused(status: Int, message: String)

    public var description: String {
        switch self {
        case .unavailable(let why, _): "Stripe could not be asked: \(why)"
        case .notFound(let what): "Stripe does not know \(what)"
        case .refused(let status, let message): "Stripe refused the call (\(status)): \(message)"
        }
    }

    /// The wait Stripe asked for before it is asked again, when it named one.
    public var retryAfterSeconds: Int? {
        if case .unavailable(_, let seconds) = self { seconds } else { nil }
    }
}

/// The reads the gateway makes of Stripe's API (stripe.md, Calling Stripe), each returning the
/// object parsed in both shapes. Blocking: callers run on the Stripe pool, never on an event loop.
public protocol StripeAPI: Sendable {
    func subscription(_ id: String) throws(StripeAPIFailure) -> StripeSubscription
    /// The invoice with every line (the embedded first page followed by the rest).
    func invoice(_ id: String) throws(StripeAPIFailure) -> StripeInvoice
    /// Every paid invoice of a subscription, each with every line.
    func paidInvoices(subscription: String) throws(StripeAPIFailure) -> [StripeInvoice]
    func charge(_ id: String) throws(StripeAPIFailure) -> StripeCharge
    /// The invoice a payment intent paid (basil and later: invoice payments), if any.
    func invoiceId(paidBy paymentIntent: String) throws(StripeAPIFailure) -> String?
    func customer(_ id: String) throws(StripeAPIFailure) -> StripeCustomer
    /// Events created in `[start, end)`, oldest first, as raw bodies (each rendered at its own version).
    func events(createdFrom start: Instant, before end: Instant) throws(StripeAPIFailure) -> [StripeEvent]
}

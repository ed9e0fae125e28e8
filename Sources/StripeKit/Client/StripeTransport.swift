import Foundation

/// One answer of Stripe's API as the client needs it.
public struct StripeHTTPAnswer: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    /// `Retry-After`, in seconds, when Stripe sends one.
    public var retryAfterSeconds: Int?

    public init(status: Int, body: [UInt8], retryAfterSeconds: Int? = nil) {
        self.status = status; self.body = body; self.retryAfterSeconds = retryAfterSeconds
    }
}

/// Sends one GET and waits for the answer, within `timeout`, reading at most
/// `maximumResponseBytes`. Blocking by contract: the client runs on the Stripe pool. Throws a
/// sentence for a network failure (refused, reset, timed out, too large).
public protocol StripeTransport: Sendable {
    func get(_ url: URL, headers: [String: String], timeout: TimeInterval, maximumResponseBytes: Int) throws(StripeAPIError) -> StripeHTTPAnswer
}

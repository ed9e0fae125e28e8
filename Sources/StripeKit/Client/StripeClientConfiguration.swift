import Foundation
import OutboundHTTP

/// How the gateway calls Stripe (stripe.md, Calling Stripe; http-api.md configuration).
public struct StripeClientConfiguration: Sendable {
    public var baseURL: URL
    /// A restricted read-only key (`rk_…`) or a secret key.
    public var apiKey: String
    /// `Stripe-Version` on every call: the shape of the answers.
    public var apiVersion: String
    /// One request's bound.
    public var requestTimeout: TimeInterval = 4
    /// A whole call's bound, retries included: a webhook that needs Stripe waits at most 10 s
    /// before it answers 503 (stripe.md, Decisions).
    public var deadline: TimeInterval = 10
    /// 429, 5xx and network failures are tried again, at most this often in all.
    public var maximumAttempts = 3
    public var initialBackoff: TimeInterval = 0.25
    public var maximumBackoff: TimeInterval = 2
    /// The three above as the store clients' retry policy.
    public var retry: RetryPolicy {
        RetryPolicy(maximumAttempts: maximumAttempts, initialBackoff: initialBackoff, maximumBackoff: maximumBackoff)
    }
    /// Objects per list page (Stripe's largest).
    public var pageSize = 100
    /// Pages one list call may read before it gives up (100 pages of 100: a subscription's
    /// invoices over eight centuries, or a 30-day backfill of 10,000 events).
    public var maximumPages = 100

    public init(baseURL: URL, apiKey: String, apiVersion: String) {
        self.baseURL = baseURL; self.apiKey = apiKey; self.apiVersion = apiVersion
    }
}

import Foundation
import Lifecycle

/// How the store clients retry a retryable answer: at most `maximumAttempts` requests, and
/// before retry n (1-based) a pause of `initialBackoff · 2^(n-1)`, at most `maximumBackoff`.
public struct RetryPolicy: Sendable, Equatable {
    /// Requests spent on retryable answers before the call gives up (at least 1).
    public var maximumAttempts: Int
    public var initialBackoff: TimeInterval
    public var maximumBackoff: TimeInterval

    public init(maximumAttempts: Int, initialBackoff: TimeInterval, maximumBackoff: TimeInterval) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// The pause before retry `attempt` (1 = the first retry).
    public func backoff(beforeRetry attempt: Int) -> TimeInterval {
        RetryBackoff(base: .seconds(initialBackoff), maximum: .seconds(maximumBackoff)).seconds(afterFailures: attempt)
    }

    /// True when `failedAttempts` requests have failed and another may be made.
    public func allowsRetry(after failedAttempts: Int) -> Bool { failedAttempts < maximumAttempts }

    /// The pause before the next request after `failedAttempts` failures in a row, or nil when the
    /// call ends now: the attempts are spent, the pause would pass the deadline (`remaining`
    /// seconds left), or the service named a wait (`Retry-After`, RFC 9110 §10.2.3) longer than
    /// `maximumBackoff`. A worker is not held for a long wait: the caller is told it instead
    /// (docs/decisions/70).
    public func pause(afterFailures failedAttempts: Int, serviceWait: Int?, remaining: TimeInterval) -> TimeInterval? {
        guard allowsRetry(after: failedAttempts) else { return nil }
        if let serviceWait, TimeInterval(serviceWait) > maximumBackoff { return nil }
        let wait = serviceWait.map(TimeInterval.init) ?? backoff(beforeRetry: failedAttempts)
        return wait < remaining ? wait : nil
    }
}

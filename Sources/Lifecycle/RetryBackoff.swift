/// Exponential backoff between attempts: `base`, twice that, four times, … up to `maximum`. Pure,
/// the one used everywhere: webhook deliveries, APNs retries, the statuses fetched after a post,
/// and the store clients' retries (`OutboundHTTP.RetryPolicy`).
public struct RetryBackoff: Sendable, Equatable {
    public var base: Duration
    public var maximum: Duration

    public init(base: Duration, maximum: Duration) { self.base = base; self.maximum = maximum }

    /// The pause after the `failures`-th failed attempt in a row (1 for the first).
    public func delay(afterFailures failures: Int) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        let grown = base * (1 << doublings)
        return grown < maximum ? grown : maximum
    }

    /// The same pause less a random part of up to half of it ("equal jitter"): `jitter` is a
    /// fraction in 0..<1, so that retries failed together do not come back together.
    public func delay(afterFailures failures: Int, jitter: Double) -> Duration {
        let full = delay(afterFailures: failures)
        return full - full * (min(max(jitter, 0), 1) / 2)
    }

    /// `delay(afterFailures:)` in seconds, for clients that count time as `TimeInterval`.
    public func seconds(afterFailures failures: Int) -> Double {
        delay(afterFailures: failures) / .seconds(1)
    }
}

/// Exponential backoff between attempts: `base`, twice that, four times, … up to `maximum`. Pure,
/// shared by webhook deliveries, APNs retries and the statuses fetched after a post.
package struct RetryBackoff: Sendable, Equatable {
    package var base: Duration
    package var maximum: Duration

    package init(base: Duration, maximum: Duration) { self.base = base; self.maximum = maximum }

    /// The pause after the `failures`-th failed attempt in a row (1 for the first).
    package func delay(afterFailures failures: Int) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        let grown = base * (1 << doublings)
        return grown < maximum ? grown : maximum
    }

    /// The same pause less a random part of up to half of it ("equal jitter"): `jitter` is a
    /// fraction in 0..<1, so that retries failed together do not come back together.
    package func delay(afterFailures failures: Int, jitter: Double) -> Duration {
        let full = delay(afterFailures: failures)
        return full - full * (min(max(jitter, 0), 1) / 2)
    }
}

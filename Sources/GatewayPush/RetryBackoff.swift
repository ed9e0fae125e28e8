/// Exponential backoff between attempts: `base`, twice that, four times, … up to `maximum`. Pure,
/// shared by webhook deliveries and APNs retries.
package struct RetryBackoff: Sendable, Equatable {
    package var base: Duration
    package var maximum: Duration

    /// The pause after the `failures`-th failed attempt in a row (1 for the first).
    package func delay(afterFailures failures: Int) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        let grown = base * (1 << doublings)
        return grown < maximum ? grown : maximum
    }
}

/// Whole units of a `Duration`, for monotonic clocks and timeouts counted in integers.
extension Duration {
    /// Whole nanoseconds, saturating.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? Int64.max : product &+ attoseconds / 1_000_000_000
    }

    public var milliseconds: Int { Int(nanoseconds / 1_000_000) }
}

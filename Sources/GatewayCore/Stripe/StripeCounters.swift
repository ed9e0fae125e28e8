import Metrics

/// Stripe events in `/metrics`, by what became of them.
package struct StripeCounters: Sendable {
    package let taken: Counter
    package let duplicate: Counter
    /// Types the gateway does not take (answered 200).
    package let ignored: Counter

    package init(_ metrics: Metrics) {
        func result(_ name: String) -> Counter {
            metrics.counter("issue_gateway_stripe_events_total", help: "Stripe events, by result", labels: [("result", name)])
        }
        taken = result("taken"); duplicate = result("duplicate"); ignored = result("ignored")
    }
}

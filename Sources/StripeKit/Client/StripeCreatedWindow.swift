import Wire

/// stripe.md (list events): Stripe's `created` is whole seconds, so a window `[start, end)` of
/// instants is listed as `created[gte]=floor(start)` and `created[lt]=ceil(end)`. Rounding the end
/// down would drop every event of the window's last second; rounding it up may list one the next
/// window lists again, which changes nothing (events are taken once by id).
enum StripeCreatedWindow {
    static func query(from start: Instant, before end: Instant) -> [(String, String)] {
        [("created[gte]", String(start.secondsSinceEpoch)), ("created[lt]", String(ceilingSeconds(end)))]
    }

    /// The least whole second at or after `instant`.
    static func ceilingSeconds(_ instant: Instant) -> Int64 {
        let floor = instant.secondsSinceEpoch
        return instant.millisecondsSinceEpoch > floor * 1000 ? floor + 1 : floor
    }
}

import Wire

/// The window a timeline shows when the caller names none: from a month before the account's
/// first period to a month after the later of its last finite end and now, widened to whole
/// UTC months; a year up to now for an account with no period. A `to` alone before that start
/// shows the year before `to`; a `from` alone after that end, the month from `from`.
public enum TimelineWindow {
    static let margin: Int64 = 31 * 86_400

    public static func around(_ periods: [ActivePeriod], now: Instant, from: Instant?, to: Instant?) -> ActivePeriod {
        let first = periods.map(\.start).min() ?? now.adding(seconds: -365 * 86_400)
        let last = max(now, periods.map(\.end).filter { $0 != .distantFuture }.max() ?? now)
        var start = from ?? monthStart(first.adding(seconds: -margin))
        var end = to ?? monthStart(last.adding(seconds: margin), next: true)
        if end <= start {
            // The bound the caller gave stands; the other moves to a year beside it.
            if let to, from == nil { start = monthStart(to.adding(seconds: -365 * 86_400)) } else { end = monthStart(start, next: true) }
        }
        if end <= start { end = monthStart(start, next: true) }
        return ActivePeriod(start: start, end: end)
    }

    /// The first instant of `t`'s UTC month, or of the next month.
    static func monthStart(_ t: Instant, next: Bool = false) -> Instant {
        let day = CivilDate(daysSinceEpoch: floorDiv(t.millisecondsSinceEpoch, 86_400_000))
        var (year, month) = (day.year, day.month)
        if next { (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1) }
        return Instant(secondsSinceEpoch: CivilDate(year: year, month: month, day: 1).daysSinceEpoch * 86_400)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

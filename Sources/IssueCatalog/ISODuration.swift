import Wire

/// An ISO 8601 duration (`P3M`, `P1Y`, `P2W`, `P1DT12H`), the length of a non-renewing product (E10).
public struct ISODuration: Hashable, Sendable, CustomStringConvertible {
    public var years: Int64 = 0, months: Int64 = 0, weeks: Int64 = 0, days: Int64 = 0
    public var hours: Int64 = 0, minutes: Int64 = 0, seconds: Int64 = 0
    public let description: String

    /// Parses `PnYnMnWnDTnHnMnS` (integers only, at least one component, `T` only before a time part).
    public init?(_ text: String) {
        var s = Substring(text)
        guard s.first == "P", s.count > 1 else { return nil }
        s = s.dropFirst()
        var inTime = false, sawAny = false, sawTimeComponent = false
        var order = 0  // components must come in their canonical order
        while !s.isEmpty {
            if s.first == "T" {
                guard !inTime else { return nil }
                inTime = true; s = s.dropFirst(); continue
            }
            let number = s.prefix(while: { $0.isASCII && $0.isNumber })
            guard !number.isEmpty, number.count <= 9, let v = Int64(number) else { return nil }
            s = s.dropFirst(number.count)
            guard let unit = s.first else { return nil }
            s = s.dropFirst()
            let rank: Int
            switch (inTime, unit) {
            case (false, "Y"): years = v; rank = 1
            case (false, "M"): months = v; rank = 2
            case (false, "W"): weeks = v; rank = 3
            case (false, "D"): days = v; rank = 4
            case (true, "H"): hours = v; rank = 5
            case (true, "M"): minutes = v; rank = 6
            case (true, "S"): seconds = v; rank = 7
            default: return nil
            }
            guard rank > order else { return nil }
            order = rank
            sawAny = true
            if inTime { sawTimeComponent = true }
        }
        guard sawAny, !inTime || sawTimeComponent else { return nil }
        description = text
    }

    /// Calendar arithmetic in UTC (E10): years and months first, the day clamped to the month's
    /// length (Jan 31 + P1M = Feb 28/29), then weeks, days and the time part as exact lengths.
    public func added(to instant: Instant) -> Instant {
        if instant == .distantFuture { return instant }
        let ms = instant.millisecondsSinceEpoch
        let days0 = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let msOfDay = ms - days0 * 86_400_000
        var date = CivilDate(daysSinceEpoch: days0)
        let totalMonths = date.year * 12 + (date.month - 1) + years * 12 + months
        date.year = totalMonths >= 0 ? totalMonths / 12 : (totalMonths - 11) / 12
        date.month = totalMonths - date.year * 12 + 1
        date.day = min(date.day, CivilDate.daysIn(month: date.month, year: date.year))
        let dayCount = date.daysSinceEpoch + weeks * 7 + days
        let extra = ((hours * 60 + minutes) * 60 + seconds) * 1000
        return Instant(millisecondsSinceEpoch: dayCount * 86_400_000 + msOfDay).adding(milliseconds: extra)
    }
}

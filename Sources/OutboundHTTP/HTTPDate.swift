import Wire

/// An HTTP-date (RFC 9110 §5.6.7) as an instant: the IMF-fixdate senders must use, and the two
/// obsolete forms a recipient must still accept (RFC 850's and asctime's).
enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `now` places RFC 850's two-digit year.
    static func parse(_ text: String, now: Instant) -> Instant? {
        let parts = text.split(separator: " ").map(String.init)
        switch parts.count {
        // IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
        case 6 where parts[0].hasSuffix(",") && parts[5] == "GMT":
            return instant(day: parts[1], month: parts[2], year: Int64(parts[3]), time: parts[4])
        // RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`.
        case 4 where parts[0].hasSuffix(",") && parts[3] == "GMT":
            let date = parts[1].split(separator: "-").map(String.init)
            guard date.count == 3, date[2].count == 2, let short = Int64(date[2]) else { return nil }
            return instant(day: date[0], month: date[1], year: fullYear(short, now: now), time: parts[2])
        // asctime: `Sun Nov  6 08:49:37 1994`.
        case 5:
            return instant(day: parts[2], month: parts[1], year: Int64(parts[4]), time: parts[3])
        default:
            return nil
        }
    }

    /// RFC 9110 §5.6.7: a two-digit year that would be more than 50 years in the future is the
    /// most recent past year with the same last two digits.
    static func fullYear(_ short: Int64, now: Instant) -> Int64 {
        let current = CivilDate(daysSinceEpoch: now.millisecondsSinceEpoch / 86_400_000).year
        let year = current - current % 100 + short
        return year > current + 50 ? year - 100 : year
    }

    private static func instant(day: String, month: String, year: Int64?, time: String) -> Instant? {
        let clock = time.split(separator: ":").compactMap { Int64($0) }
        guard let year, (1...9999).contains(year), let index = months.firstIndex(of: month), day.count <= 2,
              let dayNumber = Int64(day), (1...CivilDate.daysIn(month: Int64(index + 1), year: year)).contains(dayNumber),
              time.count == 8, clock.count == 3, clock.allSatisfy({ $0 >= 0 }), clock[0] < 24, clock[1] < 60, clock[2] < 61 else { return nil }
        let days = CivilDate(year: year, month: Int64(index + 1), day: dayNumber).daysSinceEpoch
        return Instant(millisecondsSinceEpoch: ((days * 24 + clock[0]) * 60 + clock[1]) * 60_000 + min(clock[2], 59) * 1000)
    }
}

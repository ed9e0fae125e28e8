/// A point in time: UTC, millisecond precision (entitlement-rules.md, Vocabulary).
/// Every comparison the engine makes is between instants; calendar days never enter it.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = millisecondsSinceEpoch }
    public init(secondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = secondsSinceEpoch * 1000 }

    /// The open end of an interval that never closes (E11).
    public static let distantFuture = Instant(millisecondsSinceEpoch: Int64.max)
    public static let distantPast = Instant(millisecondsSinceEpoch: Int64.min)

    public var secondsSinceEpoch: Int64 {
        millisecondsSinceEpoch >= 0 ? millisecondsSinceEpoch / 1000 : (millisecondsSinceEpoch - 999) / 1000
    }

    public static func < (a: Instant, b: Instant) -> Bool { a.millisecondsSinceEpoch < b.millisecondsSinceEpoch }

    public func adding(milliseconds: Int64) -> Instant {
        let (sum, overflow) = millisecondsSinceEpoch.addingReportingOverflow(milliseconds)
        if overflow { return milliseconds > 0 ? .distantFuture : .distantPast }
        return Instant(millisecondsSinceEpoch: sum)
    }

    public func adding(seconds: Int64) -> Instant { adding(milliseconds: seconds.multipliedReportingOverflow(by: 1000).overflow ? (seconds > 0 ? Int64.max : Int64.min) : seconds * 1000) }

    /// RFC 3339 in UTC with milliseconds, the API's response form (`2012-02-20T00:00:00.000Z`).
    public var description: String { rfc3339 }

    public var rfc3339: String {
        if self == .distantFuture { return "9999-12-31T23:59:59.999Z" }
        let ms = millisecondsSinceEpoch
        let days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let msOfDay = ms - days * 86_400_000
        let civil = CivilDate(daysSinceEpoch: days)
        let h = msOfDay / 3_600_000, m = (msOfDay / 60_000) % 60, s = (msOfDay / 1000) % 60, f = msOfDay % 1000
        return "\(pad(civil.year, 4))-\(pad(civil.month, 2))-\(pad(civil.day, 2))T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3))Z"
    }

    /// Parses RFC 3339 (§5.6) with any offset: `2026-11-01T00:00:00-05:00`, `…Z`, fractional seconds
    /// (kept to the millisecond, extra digits truncated). Returns nil for anything else.
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int64? {
            guard i + n <= b.count else { return nil }
            var v: Int64 = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int64(c - 48)
            }
            i += n
            return v
        }
        func expect(_ set: [UInt8]) -> Bool {
            guard i < b.count, set.contains(b[i]) else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect([45]), let month = digits(2), expect([45]), let day = digits(2),
              expect([84, 116]), let hour = digits(2), expect([58]), let minute = digits(2), expect([58]),
              let second = digits(2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        var millis: Int64 = 0
        if i < b.count, b[i] == 46 {
            i += 1
            var count = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if count < 3 { millis = millis * 10 + Int64(b[i] - 48) }
                count += 1; i += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { millis *= 10 }
        }
        var offsetMinutes: Int64 = 0
        guard i < b.count else { return nil }
        if b[i] == 90 || b[i] == 122 { i += 1 } else {
            let sign: Int64 = b[i] == 43 ? 1 : (b[i] == 45 ? -1 : 0)
            guard sign != 0 else { return nil }
            i += 1
            guard let oh = digits(2), expect([58]), let om = digits(2), oh <= 23, om <= 59 else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
        }
        guard i == b.count else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let secs = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetMinutes * 60
        self.millisecondsSinceEpoch = secs * 1000 + millis
    }
}

private func pad(_ v: Int64, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// A proleptic Gregorian date, converted with Howard Hinnant's days-from-civil algorithm.
public struct CivilDate: Hashable, Sendable {
    public var year: Int64, month: Int64, day: Int64

    public init(year: Int64, month: Int64, day: Int64) { self.year = year; self.month = month; self.day = day }

    public init(daysSinceEpoch z0: Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    public var daysSinceEpoch: Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func isLeap(_ y: Int64) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    public static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

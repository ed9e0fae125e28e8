import Glibc

/// Calendar fields of a Unix time in UTC, for the Date header (log timestamps are `LogTimestamps`).
struct UTCTime {
    let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int

    init(unixSeconds: Int64) {
        var time = time_t(unixSeconds)
        var fields = tm()
        gmtime_r(&time, &fields)
        year = Int(fields.tm_year) + 1900
        month = Int(fields.tm_mon) + 1
        day = Int(fields.tm_mday)
        hour = Int(fields.tm_hour)
        minute = Int(fields.tm_min)
        second = Int(fields.tm_sec)
        weekday = Int(fields.tm_wday)
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate, the only form a sender may generate (RFC 9110 §5.6.7):
    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    var imfFixdate: String {
        "\(UTCTime.weekdays[weekday]), \(pad(day)) \(UTCTime.months[month - 1]) \(year) \(pad(hour)):\(pad(minute)):\(pad(second)) GMT"
    }

    private func pad(_ value: Int, width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

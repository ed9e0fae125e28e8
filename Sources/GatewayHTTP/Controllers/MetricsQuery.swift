import Entitle
import GatewayCore
import Wire

/// reports.md E37's query: `from` and `to` (`YYYY-MM-DD`, required), `interval` (`day`, the
/// default, `week` or `month`) and `format` (`json`, the default, or `csv`), each at most once;
/// anything else in them is 400. The texts are kept: the answer repeats them as asked.
package struct MetricsQuery: Sendable, Equatable {
    package enum Format: String, Sendable { case json, csv }

    package var from: String, to: String
    package var fromDay: Int64, toDay: Int64
    package var interval: SeriesInterval
    package var format: Format

    package init(_ query: [(String, String)]) throws(GatewayError) {
        func single(_ name: String) throws(GatewayError) -> String? {
            let values = query.filter { $0.0 == name }
            guard values.count <= 1 else { throw .invalid("\(name) may be given once") }
            return values.first?.1
        }
        func day(_ name: String) throws(GatewayError) -> (String, Int64) {
            guard let text = try single(name) else { throw .invalid("\(name) is required (YYYY-MM-DD)") }
            guard let day = Self.day(text) else { throw .invalid("\(name) must be a date YYYY-MM-DD") }
            return (text, day)
        }
        (from, fromDay) = try day("from")
        (to, toDay) = try day("to")
        let intervalText = try single("interval") ?? SeriesInterval.day.rawValue
        guard let interval = SeriesInterval(rawValue: intervalText) else { throw .invalid("interval must be day, week or month") }
        self.interval = interval
        let formatText = try single("format") ?? Format.json.rawValue
        guard let format = Format(rawValue: formatText) else { throw .invalid("format must be json or csv") }
        self.format = format
    }

    /// A calendar date `YYYY-MM-DD` (RFC 3339 full-date) as days since 1970-01-01; nil unless
    /// exactly that, with a day its month has.
    package static func day(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for b in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else { return nil }
                value = value * 10 + Int64(b - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        return CivilDate(year: year, month: month, day: day).daysSinceEpoch
    }

    /// Days since 1970-01-01 as `YYYY-MM-DD`.
    package static func text(_ day: Int64) -> String {
        String(Instant(millisecondsSinceEpoch: day * SubscriberSeries.dayMilliseconds).rfc3339.prefix(10))
    }
}

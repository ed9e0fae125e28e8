import Wire

/// E37's points: a day, an ISO week (Monday first, ISO 8601 §3.2.2) or a calendar month, each
/// over its days within the range answered (a cut week or month is one point over the days it
/// has there).
public enum SeriesInterval: String, Sendable, CaseIterable {
    case day, week, month

    /// The bucket a day (days since 1970-01-01, a Thursday) falls in.
    func bucket(_ day: Int64) -> Int64 {
        switch self {
        case .day: return day
        case .week: return Self.floorDivide(day + 3, 7)  // day −3 was a Monday
        case .month:
            let date = CivilDate(daysSinceEpoch: day)
            return date.year * 12 + date.month
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

extension SubscriberSeries {
    /// Days gathered into points: `active`, `activeByStore` and `trials` those of a point's last
    /// day, `new`, `churned` and `reactivated` its days' sums; `day` the point's first day.
    public static func points(_ days: [Day], interval: SeriesInterval) -> [Day] {
        var out: [Day] = []
        var bucket: Int64?
        for day in days {
            let b = interval.bucket(day.day)
            guard b == bucket, var point = out.last else {
                out.append(day); bucket = b; continue
            }
            point.active = day.active; point.activeByStore = day.activeByStore; point.trials = day.trials
            point.new += day.new; point.churned += day.churned; point.reactivated += day.reactivated
            out[out.count - 1] = point
        }
        return out
    }
}

import IssueCatalog
import Wire

/// "Merge the ones that overlap or touch into active periods" (entitlement-rules.md, Issues).
enum IntervalMerge {
    /// Sorted, disjoint, non-touching periods covering exactly the union of the non-empty inputs.
    static func merged(_ intervals: [ActivePeriod]) -> [ActivePeriod] {
        var sorted = intervals.filter { !$0.isEmpty }
        guard sorted.count > 1 else { return sorted }
        sorted.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        var out: [ActivePeriod] = []
        out.reserveCapacity(sorted.count)
        var current = sorted[0]
        for next in sorted.dropFirst() {
            if next.start <= current.end {
                current.end = max(current.end, next.end)
            } else {
                out.append(current)
                current = next
            }
        }
        out.append(current)
        return out
    }

    /// The period of sorted, disjoint `periods` containing `t`, by binary search.
    static func period(containing t: Instant, in periods: [ActivePeriod]) -> ActivePeriod? {
        var lo = 0, hi = periods.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if periods[mid].start <= t { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, periods[lo - 1].contains(t) else { return nil }
        return periods[lo - 1]
    }
}

extension IntervalMerge {
    /// What of sorted, disjoint `periods` lies outside every one of sorted, disjoint `removed`.
    static func subtracting(_ periods: [ActivePeriod], _ removed: [ActivePeriod]) -> [ActivePeriod] {
        var out: [ActivePeriod] = []
        var r = 0
        for period in periods {
            var start = period.start
            while r < removed.count, removed[r].end <= start { r += 1 }
            var i = r
            while i < removed.count, removed[i].start < period.end {
                if removed[i].start > start { out.append(ActivePeriod(start: start, end: removed[i].start)) }
                start = max(start, removed[i].end)
                i += 1
            }
            if start < period.end { out.append(ActivePeriod(start: start, end: period.end)) }
        }
        return out
    }
}

import IssueCatalog
import Wire

/// "Merge the ones that overlap or touch into active periods" (entitlement-rules.md, Issues).
enum IntervalMerge {
    /// Sorted, disjoint, non-touching periods covering exactly the union of the non-empty inputs.
    static func merged(_ intervals: [ActivePeriod]) -> [ActivePeriod] {
        var out = intervals
        merge(&out)
        return out
    }

    /// The same in place, keeping the array's storage (a caller that merges many small lists
    /// reuses one buffer); a list already in order is not sorted again.
    static func merge(_ periods: inout [ActivePeriod]) {
        periods.removeAll(where: \.isEmpty)
        guard periods.count > 1 else { return }
        func precedes(_ a: ActivePeriod, _ b: ActivePeriod) -> Bool { (a.start, a.end) < (b.start, b.end) }
        if zip(periods, periods.dropFirst()).contains(where: { precedes($1, $0) }) { periods.sort(by: precedes) }
        var kept = 0
        for next in 1..<periods.count {
            if periods[next].start <= periods[kept].end {
                periods[kept].end = max(periods[kept].end, periods[next].end)
            } else {
                kept += 1
                periods[kept] = periods[next]
            }
        }
        periods.removeLast(periods.count - kept - 1)
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

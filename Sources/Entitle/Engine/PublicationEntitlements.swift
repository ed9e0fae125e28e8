import IssueCatalog

/// One account's entitlements in one publication at "now": merged active periods and the
/// positions of entitled issues, all found by binary search over the publication's issues.
struct PublicationEntitlements: Sendable {
    let index: PublicationIndex
    let now: Instant
    /// Issues at positions below this are published at `now` (or retracted): E16's other half.
    let visibleEnd: Int
    /// Service and grace merged (E12): what `periods(of:)` answers.
    let periods: [ActivePeriod]
    /// Service alone, merged: an instant inside `periods` but not here is served only by grace.
    let servicePeriods: [ActivePeriod]
    let voidPeriods: [ActivePeriod]
    /// Position ranges of issues published inside an active period, up to `visibleEnd` (E12).
    let entitledRanges: [Range<Int>]
    /// Sorted positions: unlocked at a period's start (E13), bought (E14), refunded purchases (E6).
    let unlocked: [Int]
    let purchased: [Int]
    let refundedPurchases: [Int]

    init(index: PublicationIndex, grants: PublicationGrants, now: Instant) {
        self.index = index
        self.now = now
        visibleEnd = index.upperBound(now)
        servicePeriods = IntervalMerge.merged(grants.service)
        periods = grants.grace.isEmpty ? servicePeriods : IntervalMerge.merged(grants.service + grants.grace)
        voidPeriods = IntervalMerge.merged(grants.void)
        var ranges: [Range<Int>] = []
        var unlocked: [Int] = []
        for period in periods where period.start <= now {
            let lo = index.lowerBound(period.start)
            let hi = min(index.lowerBound(period.end), visibleEnd)
            if lo < hi { ranges.append(lo..<hi) }
            // E13: the latest issue published at or before the start. Retracted ones are not
            // skipped: the entitlement comes back when the issue is republished (E16). A period
            // that has not begun at `now` unlocks nothing yet, so nothing shrinks later (E18).
            let latest = index.upperBound(period.start) - 1
            if latest >= 0 { unlocked.append(latest) }
        }
        entitledRanges = ranges
        self.unlocked = unlocked  // ascending: periods are sorted and disjoint
        purchased = Self.positions(of: grants.purchased, in: index)
        refundedPurchases = Self.positions(of: grants.refundedPurchases, in: index)
    }

    static func positions(of ids: Set<String>, in index: PublicationIndex) -> [Int] {
        guard !ids.isEmpty else { return [] }
        var out: [Int] = []
        for (offset, issue) in index.issues.enumerated() where ids.contains(issue.id) { out.append(offset) }
        return out
    }

    /// Entitled, visible positions in ascending order (E12–E16).
    func entitledPositions() -> [Int] {
        var all: [Int] = []
        all.reserveCapacity(entitledRanges.reduce(0) { $0 + $1.count } + unlocked.count + purchased.count)
        for r in entitledRanges { all.append(contentsOf: r) }
        all.append(contentsOf: unlocked)
        all.append(contentsOf: purchased.lazy.filter { $0 < visibleEnd })
        let freeEnd = Self.lowerBound(visibleEnd, in: index.freePositions)
        all.append(contentsOf: index.freePositions[..<freeEnd])
        all.sort()
        var out: [Int] = []
        out.reserveCapacity(all.count)
        for p in all where out.last != p && index.issue(at: p).retractedAt == nil { out.append(p) }
        return out
    }

    /// Visible positions (published at `now`, not retracted), ascending (E16).
    func visiblePositions() -> [Int] {
        (0..<visibleEnd).filter { index.issue(at: $0).retractedAt == nil }
    }

    /// E12–E20 for one issue. Scheduled and retracted issues get their one reason (E16, E20).
    func entitlement(at position: Int) -> IssueEntitlement {
        let issue = index.issue(at: position)
        return IssueEntitlement(issue: issue, reasonBits: reasons(of: issue, at: position))
    }

    private func reasons(of issue: Issue, at position: Int) -> UInt16 {
        typealias R = IssueEntitlement
        if issue.retractedAt != nil { return R.bit(.retracted) }
        if issue.publishedAt > now { return R.bit(.scheduled) }
        var bits: UInt16 = 0
        if IntervalMerge.period(containing: issue.publishedAt, in: periods) != nil {
            let paid = IntervalMerge.period(containing: issue.publishedAt, in: servicePeriods) != nil
            bits |= R.bit(paid ? .activePeriod : .gracePeriod)
        }
        if Self.contains(position, in: unlocked) { bits |= R.bit(.unlockedAtStart) }
        if Self.contains(position, in: purchased) { bits |= R.bit(.purchased) }
        if issue.free { bits |= R.bit(.free) }
        if bits != 0 { return bits }
        // E20: the nearest reason for a refusal.
        if IntervalMerge.period(containing: issue.publishedAt, in: voidPeriods) != nil
            || Self.contains(position, in: refundedPurchases) {
            return R.bit(.refunded)
        }
        return R.bit(periods.isEmpty ? .noPurchase : .notSubscribedWhenPublished)
    }

    static func contains(_ value: Int, in sorted: [Int]) -> Bool {
        let i = lowerBound(value, in: sorted)
        return i < sorted.count && sorted[i] == value
    }

    static func lowerBound(_ value: Int, in sorted: [Int]) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

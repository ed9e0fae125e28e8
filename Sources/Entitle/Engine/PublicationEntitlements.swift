import IssueCatalog
import Wire

/// One account's entitlements in one publication at "now": merged active periods and the
/// positions of entitled issues, all found by binary search over the publication's issues, so
/// that building it costs O(periods × log issues) and listing costs O(listed issues).
struct PublicationEntitlements: Sendable {
    let index: PublicationIndex
    let now: Instant
    /// Issues at positions below this are published at `now` (or retracted): E16's other half.
    let visibleEnd: Int
    /// Service and grace merged (E12): what `periods(of:)` answers.
    let periods: [ActivePeriod]
    /// Service alone, merged: an instant inside `periods` but not here is served only by grace
    /// or a grant.
    let servicePeriods: [ActivePeriod]
    /// E21: grants alone, merged (reason `granted` where no store reason applies).
    let grantedPeriods: [ActivePeriod]
    /// E30: the covering institution's interval, merged (reason `institution`, beside any other).
    let institutionPeriods: [ActivePeriod]
    /// E6's void intervals and E24's refunded remainders after a cut, merged (`refunded`, E20).
    let voidPeriods: [ActivePeriod]
    /// Visible positions published inside an active period, ascending and disjoint, each run with
    /// `activePeriod` or `gracePeriod` (E12).
    let segments: [PositionSegment]
    /// Sorted, distinct positions: unlocked at a period's start (E13), bought (E14), refunded
    /// purchases (E6).
    let unlocked: [Int]
    /// Where each stretch of paid or granted service begins (E13's unlocking instants).
    let paidStarts: [Instant]
    let purchased: [Int]
    /// E22: issues granted one by one.
    let grantedIssues: [Int]
    let refundedPurchases: [Int]

    init(index: PublicationIndex, grants: PublicationGrants, now: Instant) {
        self.index = index
        self.now = now
        let visibleEnd = index.upperBound(now)
        self.visibleEnd = visibleEnd
        let servicePeriods = IntervalMerge.merged(grants.service)
        let grantedPeriods = IntervalMerge.merged(grants.granted)
        let institutionPeriods = IntervalMerge.merged(grants.institution)
        let periods = grants.grace.isEmpty && grantedPeriods.isEmpty && institutionPeriods.isEmpty
            ? servicePeriods : IntervalMerge.merged(grants.service + grants.grace + grants.granted + grants.institution)
        self.servicePeriods = servicePeriods
        self.grantedPeriods = grantedPeriods
        self.institutionPeriods = institutionPeriods
        self.periods = periods
        let voidStarts = IntervalMerge.merged(grants.void)
        // E24: a refunded cut's remainder explains refusals like a void interval, but unlocked nothing.
        voidPeriods = grants.refundedAfterCut.isEmpty ? voidStarts : IntervalMerge.merged(grants.void + grants.refundedAfterCut)
        var segments: [PositionSegment] = []
        var unlocked: [Int] = []
        var service = 0
        for period in periods {
            // A period that has not begun at `now` entitles and unlocks nothing yet, so nothing
            // shrinks later (E18); periods are sorted, so neither do the rest.
            guard period.start <= now else { break }
            let range = index.lowerBound(period.start)..<min(index.lowerBound(period.end), visibleEnd)
            if !grantedPeriods.isEmpty || !institutionPeriods.isEmpty {
                segments += Self.paint(range, service: Self.positions(servicePeriods, index),
                                       granted: Self.positions(grantedPeriods, index),
                                       institution: Self.positions(institutionPeriods, index))
            } else {
                // Split the run where paid service gives way to grace (E8).
                var cursor = range.lowerBound
                while service < servicePeriods.count, servicePeriods[service].start < period.end {
                    let paid = index.lowerBound(servicePeriods[service].start)..<index.lowerBound(servicePeriods[service].end)
                    let clamped = paid.clamped(to: range)
                    if cursor < clamped.lowerBound { segments.append(Self.segment(cursor..<clamped.lowerBound, .gracePeriod)) }
                    if !clamped.isEmpty {
                        segments.append(Self.segment(clamped, .activePeriod))
                        cursor = max(cursor, clamped.upperBound)
                    }
                    service += 1
                }
                if cursor < range.upperBound { segments.append(Self.segment(cursor..<range.upperBound, .gracePeriod)) }
            }
        }
        // E13: the latest issue published at or before the start of each stretch of paid or
        // granted service (a purchase, a resubscribe, a grant), never of grace: a period that
        // begins with grace unlocks nothing, and a purchase made while grace runs after a refunded
        // renewal is a return like any other. Retracted ones are not skipped: the entitlement
        // comes back when the issue is republished (E16).
        let paidStarts = (grantedPeriods.isEmpty && institutionPeriods.isEmpty
            ? servicePeriods : IntervalMerge.merged(servicePeriods + grantedPeriods + institutionPeriods)).map(\.start)
        for start in paidStarts where start <= now {
            let latest = index.upperBound(start) - 1
            if latest >= 0, unlocked.last != latest { unlocked.append(latest) }
        }
        self.paidStarts = paidStarts
        self.segments = segments
        self.unlocked = unlocked  // ascending: the stretches are sorted and disjoint
        purchased = Set(grants.purchased).sorted()
        grantedIssues = Set(grants.grantedIssues).sorted()
        // E20: an issue that a refunded purchase (E14) or a refunded period's start (E13) would
        // have given is refused as `refunded`, the nearest reason, rather than `noPurchase`.
        let refundedStarts = voidStarts.lazy.filter { $0.start <= now }.map { index.upperBound($0.start) - 1 }.filter { $0 >= 0 }
        refundedPurchases = Set(grants.refundedPurchases + refundedStarts).sorted()
    }

    /// The first instant after `now` at which this publication's list could change with time alone:
    /// the next issue comes out (E16), a stretch of paid service begins and unlocks (E13; grace is
    /// never the start of a period, it only follows service), or a
    /// refunded one's start comes, which names the issue it would have unlocked (E20).
    /// Everything else in the list is fixed by the facts and the catalog (E18).
    var stableUntil: Instant {
        let nextIssue = visibleEnd < index.count ? index.issue(at: visibleEnd).publishedAt : Instant.distantFuture
        let nextPeriod = paidStarts.first { $0 > now } ?? .distantFuture
        let nextRefunded = voidPeriods.first { $0.start > now }?.start ?? .distantFuture
        return min(nextIssue, nextPeriod, nextRefunded)
    }

    /// Periods as the positions of the issues published inside them.
    private static func positions(_ periods: [ActivePeriod], _ index: PublicationIndex) -> [Range<Int>] {
        periods.map { index.lowerBound($0.start)..<index.lowerBound($0.end) }
    }

    /// One active period's positions with a grant among its intervals: paid service first
    /// (`activePeriod`), then grants (`granted`, E21), the rest grace (E8) unless an institution
    /// covers it, in runs; an institution's interval adds `institution` to whatever else applies (E30).
    private static func paint(_ range: Range<Int>, service: [Range<Int>], granted: [Range<Int>],
                              institution: [Range<Int>]) -> [PositionSegment] {
        var cuts: Set<Int> = [range.lowerBound, range.upperBound]
        for r in service + granted + institution {
            for bound in [r.lowerBound, r.upperBound] where range.contains(bound) { cuts.insert(bound) }
        }
        var out: [PositionSegment] = []
        let sorted = cuts.sorted()
        for (a, b) in zip(sorted, sorted.dropFirst()) where a < b {
            let bits = ownBits(inService: service.contains { $0.contains(a) }, inGrant: granted.contains { $0.contains(a) },
                               inInstitution: institution.contains { $0.contains(a) })
            if let last = out.last, last.bits == bits, last.range.upperBound == a {
                out[out.count - 1].range = last.range.lowerBound..<b
            } else {
                out.append(PositionSegment(range: a..<b, bits: bits))
            }
        }
        return out
    }

    /// The reasons of a position inside an active period: `activePeriod` before `granted` before
    /// grace (E21 before E8), and `institution` beside them (E30: the institution's issues are
    /// added to the account's own); grace is not claimed where only an institution's interval
    /// may explain the period.
    private static func ownBits(inService: Bool, inGrant: Bool, inInstitution: Bool) -> UInt16 {
        typealias R = IssueEntitlement
        let own: UInt16 = inService ? R.bit(.activePeriod) : inGrant ? R.bit(.granted) : inInstitution ? 0 : R.bit(.gracePeriod)
        return own | (inInstitution ? R.bit(.institution) : 0)
    }

    private static func segment(_ range: Range<Int>, _ reason: EntitlementReason) -> PositionSegment {
        PositionSegment(range: range, bits: IssueEntitlement.bit(reason))
    }

    /// E12–E20 for one issue. Scheduled and retracted issues get their one reason (E16, E20).
    func entitlement(at position: Int) -> IssueEntitlement {
        index.entitlement(at: position, reasonBits: reasons(at: position))
    }

    private func reasons(at position: Int) -> UInt16 {
        typealias R = IssueEntitlement
        let issue = index.issue(at: position)
        if issue.retractedAt != nil { return R.bit(.retracted) }
        if issue.publishedAt > now { return R.bit(.scheduled) }
        var bits: UInt16 = 0
        if IntervalMerge.period(containing: issue.publishedAt, in: periods) != nil {
            let at = issue.publishedAt
            bits |= Self.ownBits(inService: IntervalMerge.period(containing: at, in: servicePeriods) != nil,
                                 inGrant: IntervalMerge.period(containing: at, in: grantedPeriods) != nil,
                                 inInstitution: IntervalMerge.period(containing: at, in: institutionPeriods) != nil)
        }
        if SortedSearch.contains(position, in: unlocked) { bits |= R.bit(.unlockedAtStart) }
        if SortedSearch.contains(position, in: purchased) { bits |= R.bit(.purchased) }
        if SortedSearch.contains(position, in: grantedIssues) { bits |= R.bit(.granted) }
        if issue.free { bits |= R.bit(.free) }
        if bits != 0 { return bits }
        if IntervalMerge.period(containing: issue.publishedAt, in: voidPeriods) != nil
            || SortedSearch.contains(position, in: refundedPurchases) {
            return R.bit(.refunded)
        }
        return refusal
    }

    /// E20: the nearest reason for a refusal that nothing more specific explains.
    private var refusal: UInt16 { IssueEntitlement.bit(periods.isEmpty ? .noPurchase : .notSubscribedWhenPublished) }

    /// Calls `body(position, reasonBits)` for visible issues (published at `now`, not retracted;
    /// E16), newest first: the entitled ones, or all. One pass with monotone cursors over the
    /// sorted runs and points; inside a run, issues up to the next point or retraction are given
    /// in a tight loop, so each listed issue costs O(1) and a skipped gap nothing.
    func forEachListed(entitledOnly: Bool, _ body: (Int, UInt16) -> Void) {
        let points = pointReasons()
        let retracted = index.retractedPositions
        let voids = entitledOnly ? [] : voidRanges()
        var seg = segments.count - 1, point = points.count - 1, gone = retracted.count - 1
        var void = voids.count - 1, refunded = refundedPurchases.count - 1
        var p = visibleEnd - 1
        while p >= 0 {
            while seg >= 0, segments[seg].range.lowerBound > p { seg -= 1 }
            while point >= 0, points[point].range.lowerBound > p { point -= 1 }
            while gone >= 0, retracted[gone] > p { gone -= 1 }
            let inRun = seg >= 0 && segments[seg].range.upperBound > p
            let atPoint = point >= 0 && points[point].range.lowerBound == p
            let isRetracted = gone >= 0 && retracted[gone] == p
            if inRun, !atPoint, !isRetracted {
                let floor = max(segments[seg].range.lowerBound, point >= 0 ? points[point].range.lowerBound + 1 : 0,
                                gone >= 0 ? retracted[gone] + 1 : 0)
                let bits = segments[seg].bits
                for q in stride(from: p, through: floor, by: -1) { body(q, bits) }
                p = floor - 1
                continue
            }
            var bits = (inRun ? segments[seg].bits : 0) | (atPoint ? points[point].bits : 0)
            if bits == 0 {
                if entitledOnly {  // jump to the next entitled candidate
                    p = max(seg >= 0 ? segments[seg].range.upperBound - 1 : -1,
                            point >= 0 ? points[point].range.lowerBound : -1)
                    continue
                }
                while void >= 0, voids[void].lowerBound > p { void -= 1 }
                while refunded >= 0, refundedPurchases[refunded] > p { refunded -= 1 }
                let isVoid = (void >= 0 && voids[void].upperBound > p) || (refunded >= 0 && refundedPurchases[refunded] == p)
                bits = isVoid ? IssueEntitlement.bit(.refunded) : refusal
            }
            if !isRetracted { body(p, bits) }
            p -= 1
        }
    }

    /// Unlocked (E13), bought (E14) and free (E15) visible positions, ascending, one entry each.
    private func pointReasons() -> [PositionSegment] {
        typealias R = IssueEntitlement
        var few = unlocked.map { PositionSegment(range: $0..<$0 + 1, bits: R.bit(.unlockedAtStart)) }
        few += purchased.lazy.filter { $0 < visibleEnd }.map { PositionSegment(range: $0..<$0 + 1, bits: R.bit(.purchased)) }
        few += grantedIssues.lazy.filter { $0 < visibleEnd }.map { PositionSegment(range: $0..<$0 + 1, bits: R.bit(.granted)) }
        if !purchased.isEmpty || !grantedIssues.isEmpty { few.sort { $0.range.lowerBound < $1.range.lowerBound } }
        let free = index.freePositions
        let freeEnd = SortedSearch.lowerBound(visibleEnd, in: free)
        var out: [PositionSegment] = []
        out.reserveCapacity(few.count + freeEnd)
        var i = 0, j = 0
        while i < few.count || j < freeEnd {  // merge the two sorted lists, joining equal positions
            let next: PositionSegment
            if j == freeEnd || (i < few.count && few[i].range.lowerBound < free[j]) {
                next = few[i]; i += 1
            } else if i < few.count, few[i].range.lowerBound == free[j] {
                next = PositionSegment(range: few[i].range, bits: few[i].bits | R.bit(.free)); i += 1; j += 1
            } else {
                next = PositionSegment(range: free[j]..<free[j] + 1, bits: R.bit(.free)); j += 1
            }
            if let last = out.last, last.range == next.range {
                out[out.count - 1].bits |= next.bits
            } else {
                out.append(next)
            }
        }
        return out
    }

    /// Visible positions inside void periods (E6, for `refunded`), ascending and disjoint.
    private func voidRanges() -> [Range<Int>] {
        voidPeriods.compactMap { period in
            let lo = index.lowerBound(period.start), hi = min(index.lowerBound(period.end), visibleEnd)
            return lo < hi ? lo..<hi : nil
        }
    }
}

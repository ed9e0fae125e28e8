import IssueCatalog
import Wire

/// One account's periods against one publication's issues over a window of time: what the
/// timeline picture draws (the Guide's Figure 5-1). Pure: built from the engine's answer
/// (`AccountEntitlements`), so the picture says exactly what the issue lists say.
public struct AccountTimeline: Sendable, Equatable {
    public var publicationId: String
    /// `[from, to)`: the window drawn.
    public var from: Instant
    public var to: Instant
    public var now: Instant
    /// Oldest first; bars of one kind never overlap each other.
    public var bars: [TimelineBar]
    /// Every issue published in the window, oldest first.
    public var marks: [TimelineMark]
}

/// A stretch of time the account held the publication, by the kind of holding.
public struct TimelineBar: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Paid service (E5, E7, E10, E11).
        case active
        /// Grace only: the App Store's or the gateway's (E8).
        case grace
        /// A grant beyond the App Store (E21).
        case granted
        /// A refunded transaction's own interval: as if never bought (E6, E20).
        case refunded
    }

    public var kind: Kind
    public var start: Instant
    /// `.distantFuture` for a period that never closes (E11, an open grant).
    public var end: Instant
}

/// One issue and the engine's verdict on it (E12–E20).
public struct TimelineMark: Sendable, Equatable {
    public var issueId: String
    public var title: String
    public var publishedAt: Instant
    public var entitled: Bool
    public var reasons: [EntitlementReason]
}

extension AccountEntitlements {
    /// The publications the account holds something in (a period, a refunded one, a purchase,
    /// a grant), the one it touched first first (ties by id).
    public var touchedPublications: [String] {
        held.entries.map { entry -> (Instant, String) in
            let p = entry.value
            let firstPeriod = [p.periods.first?.start, p.voidPeriods.first?.start].compactMap { $0 }.min()
            let firstIssue = (p.purchased + p.grantedIssues + p.refundedPurchases).map { p.index.issue(at: $0).publishedAt }.min()
            return ([firstPeriod, firstIssue].compactMap { $0 }.min() ?? .distantFuture, p.index.id)
        }.sorted { $0 < $1 }.map(\.1)
    }

    /// The timeline of one publication over `[from, to)` (each defaulting to the window around
    /// the account's periods and now: `TimelineWindow`); nil for an unknown publication.
    /// `visibleOnly`: only issues a reader may see (E16: no scheduled or retracted one), for a
    /// reader's own picture; support staff see every issue with its reason.
    public func timeline(of publicationId: String, from: Instant? = nil, to: Instant? = nil,
                         visibleOnly: Bool = false) -> AccountTimeline? {
        guard let number = catalog.publicationNumbers[publicationId] else { return nil }
        let p = publication(number)
        let paid = IntervalMerge.merged(p.servicePeriods + p.grantedPeriods)
        var bars = p.servicePeriods.map { TimelineBar(kind: .active, start: $0.start, end: $0.end) }
        bars += IntervalMerge.subtracting(p.periods, paid).map { TimelineBar(kind: .grace, start: $0.start, end: $0.end) }
        bars += p.grantedPeriods.map { TimelineBar(kind: .granted, start: $0.start, end: $0.end) }
        bars += p.voidPeriods.map { TimelineBar(kind: .refunded, start: $0.start, end: $0.end) }
        bars.sort { ($0.start, $0.end, $0.kind.rawValue) < ($1.start, $1.end, $1.kind.rawValue) }
        let window = TimelineWindow.around(bars.map { ActivePeriod(start: $0.start, end: $0.end) }, now: now, from: from, to: to)
        let marks = catalog.snapshot.issues(of: publicationId, from: window.start, to: window.end).compactMap { issue in
            (visibleOnly ? entitlement(for: issue.ref) : explanation(for: issue.ref)).map {
                TimelineMark(issueId: issue.id, title: issue.title, publishedAt: issue.publishedAt, entitled: $0.entitled,
                             reasons: $0.reasons)
            }
        }
        let visible = bars.filter { $0.start < window.end && window.start < $0.end }
        return AccountTimeline(publicationId: publicationId, from: window.start, to: window.end, now: now, bars: visible,
                               marks: marks)
    }
}

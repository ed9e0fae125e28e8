import Wire

/// E29: a print subscriber's interval as the publisher's list gives it, `[start, end)` with `end`
/// nil while the subscription runs on, and how a later list moves it. The instant a list arrives
/// (`listTime`) bounds every move: what was served before it stays served.
public struct PrintSubscriberTerms: Hashable, Sendable {
    public var start: Instant
    /// Nil: open-ended.
    public var end: Instant?

    public init(start: Instant, end: Instant?) { self.start = start; self.end = end }

    /// Whether these terms have ended by `instant`.
    public func hasEnded(by instant: Instant) -> Bool { end.map { $0 <= instant } ?? false }

    /// E29: the terms after a list that gives `listed`. A later end extends; an earlier one moves
    /// the end, but never before `listTime` nor before what was already served (the old interval
    /// up to `listTime`); a start may move earlier, and later only while nothing was served yet.
    public func following(_ listed: PrintSubscriberTerms, at listTime: Instant) -> PrintSubscriberTerms {
        let servedUntil = Self.earlier(end, listTime)
        let served = start < servedUntil
        let start = served ? min(listed.start, self.start) : listed.start
        var end = listed.end
        if let listedEnd = listed.end, Self.isBefore(listedEnd, self.end) {
            end = max(listedEnd, max(servedUntil, start))
        }
        return PrintSubscriberTerms(start: start, end: end)
    }

    /// E29: the terms of a subscriber missing from a whole list received at `listTime`: it ends
    /// then, or at its own end if that is earlier (never before its start).
    public func endingMissing(at listTime: Instant) -> PrintSubscriberTerms {
        PrintSubscriberTerms(start: start, end: max(start, Self.earlier(end, listTime)))
    }

    /// The earlier of an optional end (nil: open) and an instant.
    private static func earlier(_ end: Instant?, _ instant: Instant) -> Instant {
        end.map { min($0, instant) } ?? instant
    }

    /// Whether `a` comes before `b`, where nil is open (after every instant).
    private static func isBefore(_ a: Instant, _ b: Instant?) -> Bool { b.map { a < $0 } ?? true }
}

import IssueCatalog
import Wire

/// What deciding E36 for one issue needs of the catalog and the clock: when it was published,
/// when the next issue of its publication was (E13: a stretch beginning in between unlocks it),
/// and the instant of the report (a stretch not begun yet unlocks nothing, E18).
public struct CirculationWindow: Hashable, Sendable {
    public var issueId: String
    public var publishedAt: Instant
    /// The next issue's `publishedAt` in (publishedAt, id) order, every state counted as the
    /// engine counts it; `.distantFuture` for the last.
    public var nextPublishedAt: Instant
    public var asOf: Instant

    public init(issueId: String, publishedAt: Instant, nextPublishedAt: Instant, asOf: Instant) {
        self.issueId = issueId; self.publishedAt = publishedAt; self.nextPublishedAt = nextPublishedAt; self.asOf = asOf
    }

    /// E12–E14 for one piece of evidence: whether it entitles the issue.
    public func entitles(_ item: CirculationEvidence) -> Bool {
        switch item.kind {
        case .interval: item.start <= publishedAt && publishedAt < item.end
        case .unlock: publishedAt <= item.start && item.start < nextPublishedAt && item.start <= asOf
        case .issue: item.issueId == issueId
        }
    }

    /// reports.md: the one piece of evidence that decides an account's basis, store, product and
    /// subscription, among the account's evidence; nil when none entitles the issue.
    public func deciding(_ items: some Sequence<CirculationEvidence>) -> CirculationEvidence? {
        var best: CirculationEvidence?
        for item in items where entitles(item) {
            if best.map({ CirculationEvidence.decides(item, over: $0) }) ?? true { best = item }
        }
        return best
    }
}

extension EntitlementCatalog {
    /// The window of a catalog issue at `asOf`; nil when the catalog has no such issue.
    public func circulationWindow(of ref: IssueRef, asOf: Instant) -> CirculationWindow? {
        guard let index = publication(ref.publicationId), let issue = snapshot.issue(ref),
              let position = index.position(of: issue) else { return nil }
        let next = position + 1 < index.count ? index.issue(at: position + 1).publishedAt : Instant.distantFuture
        return CirculationWindow(issueId: ref.issueId, publishedAt: issue.publishedAt, nextPublishedAt: next, asOf: asOf)
    }
}

import IssueCatalog
import Wire

/// E21: access a publisher's backend gives an account that no store sold (a print subscriber's
/// digital access, a complimentary subscription, a newsroom pass). Identified by
/// `(source, externalId)`, so sending it again changes nothing (E1's idempotence); revoking it is
/// E6 for it: as if it had never been given.
public struct Grant: Hashable, Sendable {
    public var grantId: String
    public var accountId: String
    public var source: String
    public var externalId: String
    public var publications: [String]
    /// One issue for good (an access code's, E22) instead of a window: the grant then entitles
    /// that issue alone, whenever it was published.
    public var issue: IssueRef?
    public var start: Instant
    /// Nil: open-ended.
    public var end: Instant?
    public var revokedAt: Instant?
    public var note: String?
    public var createdAt: Instant

    public init(grantId: String, accountId: String, source: String, externalId: String, publications: [String],
                issue: IssueRef? = nil, start: Instant, end: Instant?, revokedAt: Instant? = nil, note: String? = nil,
                createdAt: Instant) {
        self.grantId = grantId; self.accountId = accountId; self.source = source; self.externalId = externalId
        self.publications = publications; self.issue = issue; self.start = start; self.end = end; self.revokedAt = revokedAt
        self.note = note; self.createdAt = createdAt
    }

    /// What E21 entitles: `[start, end)`, open-ended when `end` is nil.
    public var period: ActivePeriod { ActivePeriod(start: start, end: end ?? .distantFuture) }

    /// The same grant as far as its sender is concerned: same account, publications (as a set),
    /// interval and note. A resend that differs is a conflict, not an edit in place.
    public func sameTerms(as other: Grant) -> Bool {
        accountId == other.accountId && source == other.source && externalId == other.externalId
            && Set(publications) == Set(other.publications) && issue == other.issue && start == other.start && end == other.end
            && note == other.note
    }
}

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
    /// Who gives it: the account's own grant (E21, reason `granted`), or the institution covering
    /// the request's address (E30, reason `institution`), which is never stored on the account.
    public var origin: GrantOrigin

    public init(grantId: String, accountId: String, source: String, externalId: String, publications: [String],
                issue: IssueRef? = nil, start: Instant, end: Instant?, revokedAt: Instant? = nil, note: String? = nil,
                createdAt: Instant, origin: GrantOrigin = .account) {
        self.grantId = grantId; self.accountId = accountId; self.source = source; self.externalId = externalId
        self.publications = publications; self.issue = issue; self.start = start; self.end = end; self.revokedAt = revokedAt
        self.note = note; self.createdAt = createdAt; self.origin = origin
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

/// Whose grant it is (E21 or E30): it decides the reason the grant's issues are given.
public enum GrantOrigin: Hashable, Sendable {
    /// Given to the account (E21): reason `granted` where no store reason applies.
    case account
    /// An institution covering the request's address (E30): reason `institution`, listed beside
    /// the account's own reasons.
    case institution
}

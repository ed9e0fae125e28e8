import Wire

/// One dated edition of a publication (entitlement-rules.md, Vocabulary).
public struct Issue: Hashable, Sendable {
    public var publicationId: String
    public var id: String
    public var title: String
    public var publishedAt: Instant
    public var free: Bool
    public var assets: [Asset]
    /// Set when an editor retracts the issue; cleared when it is republished (E16).
    public var retractedAt: Instant?

    public init(publicationId: String, id: String, title: String, publishedAt: Instant, free: Bool = false,
                assets: [Asset] = [], retractedAt: Instant? = nil) {
        self.publicationId = publicationId; self.id = id; self.title = title; self.publishedAt = publishedAt
        self.free = free; self.assets = assets; self.retractedAt = retractedAt
    }

    public var ref: IssueRef { IssueRef(publicationId: publicationId, issueId: id) }

    /// The state is derived, never stored: retraction wins, then publishedAt against "now".
    public func state(at now: Instant) -> IssueState {
        if retractedAt != nil { return .retracted }
        return publishedAt <= now ? .published : .scheduled
    }
}

public enum IssueState: String, Hashable, Sendable, CaseIterable {
    case scheduled, published, retracted
}

/// A file on the CDN. `path` is an absolute URL path (http-api.md: starts with `/`, no `..`, `//`,
/// `?`, `#` or control characters).
public struct Asset: Hashable, Sendable {
    public var path: String
    public var bytes: Int64?
    public var sha256: String?

    public init(path: String, bytes: Int64? = nil, sha256: String? = nil) {
        self.path = path; self.bytes = bytes; self.sha256 = sha256
    }
}

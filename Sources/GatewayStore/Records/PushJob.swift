import IssueCatalog
import Wire

/// The pushes of one published issue, going out page by page: `cursor` is the last account whose
/// devices were sent to, so a restart resumes after it (at least once: the page in flight when a
/// process stops is sent again).
public struct PushJob: Hashable, Sendable {
    /// Assigned by the store; 0 before.
    public var jobId: Int64
    public var issue: IssueRef
    public var cursor: String?
    public var createdAt: Instant
    public var finishedAt: Instant?
    public var leaseOwner: String?
    public var leaseUntil: Instant?

    public init(jobId: Int64 = 0, issue: IssueRef, cursor: String? = nil, createdAt: Instant, finishedAt: Instant? = nil,
                leaseOwner: String? = nil, leaseUntil: Instant? = nil) {
        self.jobId = jobId; self.issue = issue; self.cursor = cursor; self.createdAt = createdAt
        self.finishedAt = finishedAt; self.leaseOwner = leaseOwner; self.leaseUntil = leaseUntil
    }
}

/// Which accounts may be entitled to a newly published issue, for paging through them without
/// loading every account: owners of transactions of any of `productIds` (the store product ids of
/// the products that grant its publication, and of the issue's own single-issue products; a
/// store's id that another store also uses only widens the candidates), holders of a grant of the publication, or, for a
/// free issue (E15), everyone. Only accounts with a device are candidates for pushes.
public struct PushAudience: Sendable, Equatable {
    public var publicationId: String
    public var productIds: [String]
    public var everyone: Bool

    public init(publicationId: String, productIds: [String], everyone: Bool) {
        self.publicationId = publicationId; self.productIds = productIds; self.everyone = everyone
    }
}

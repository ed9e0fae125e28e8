import Wire

/// Whether a list replaces the publication's whole list (`PUT`) or changes some rows (`PATCH`).
public enum SubscriberListKind: String, Sendable, CaseIterable {
    case whole, changes
}

/// A line of a list that was not taken, and why (http-api.md: `{"line", "error"}`).
public struct RejectedLine: Sendable, Equatable {
    public var line: Int
    public var error: String

    public init(line: Int, error: String) { self.line = line; self.error = error }
}

/// What a list did (http-api.md, Print subscribers and institutions): rows added, changed, ended
/// and unchanged, and the lines rejected.
public struct SubscriberListCounts: Sendable, Equatable {
    public var added = 0
    public var changed = 0
    public var ended = 0
    public var unchanged = 0
    public var rejected: [RejectedLine] = []
    /// Rejections beyond those kept in `rejected` (a list of garbage must not fill memory).
    public var rejectedBeyondKept = 0

    public init() {}

    public var rejectedCount: Int { rejected.count + rejectedBeyondKept }

    /// The most rejected lines answered one by one; the rest are only counted.
    public static let keptRejections = 1000

    public mutating func reject(line: Int, _ error: String) {
        if rejected.count < Self.keptRejections { rejected.append(RejectedLine(line: line, error: error)) } else { rejectedBeyondKept += 1 }
    }

    public mutating func add(_ other: SubscriberListCounts) {
        added += other.added; changed += other.changed; ended += other.ended; unchanged += other.unchanged
        for rejection in other.rejected { reject(line: rejection.line, rejection.error) }
        rejectedBeyondKept += other.rejectedBeyondKept
    }
}

/// A list received, with its counts (the console lists them).
public struct SubscriberImport: Sendable, Equatable {
    public var listId: String
    public var publicationId: String
    public var kind: SubscriberListKind
    /// The list's time (E29): what it ends and moves is bounded by it.
    public var receivedAt: Instant
    /// Nil while the list is being applied (or when the store failed even to record its end).
    public var finishedAt: Instant?
    /// What was applied, also of a list refused part way (its batches before the refusal stay).
    public var counts: SubscriberListCounts
    /// Why the list was refused part way, when it was; it ended at `finishedAt` all the same.
    public var refusal: String?

    public init(listId: String, publicationId: String, kind: SubscriberListKind, receivedAt: Instant,
                finishedAt: Instant? = nil, counts: SubscriberListCounts = SubscriberListCounts(), refusal: String? = nil) {
        self.listId = listId; self.publicationId = publicationId; self.kind = kind; self.receivedAt = receivedAt
        self.finishedAt = finishedAt; self.counts = counts; self.refusal = refusal
    }
}

/// A committed change that caches of other processes sharing the store must hear of:
/// what a process keeps in memory and who may change it behind its back.
public enum StoreChange: Hashable, Sendable {
    /// The catalog revision moved.
    case catalog
    /// The account's facts version moved (receipts, notifications, grants, transfers, codes).
    case accountFacts(accountId: String)
    /// An API key was created or deleted.
    case apiKey(keyId: String)
    /// An account was deleted (E35): its bearer secrets stop resolving in every process.
    case accountEnded(accountId: String)
    /// A session ended (E34: sign-out, a replacement, a merge): its token stops resolving.
    case session(sessionId: String)
}

/// One entry of a change feed: its place in commit order and what changed.
public struct SequencedChange: Sendable, Equatable {
    public var sequence: Int64
    public var change: StoreChange

    public init(sequence: Int64, change: StoreChange) { self.sequence = sequence; self.change = change }
}

/// What a change feed holds after a sequence.
public struct ChangeBatch: Sendable, Equatable {
    /// In commit order.
    public var changes: [SequencedChange]
    /// The oldest sequence the feed still keeps (older entries are pruned); nil when it keeps
    /// none. A reader whose last sequence is older than `oldestKept - 1` missed changes.
    public var oldestKept: Int64?

    public init(changes: [SequencedChange], oldestKept: Int64?) { self.changes = changes; self.oldestKept = oldestKept }
}

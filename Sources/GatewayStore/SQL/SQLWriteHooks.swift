import Entitle

/// What a backend adds to the write statements written once (`SQLWriteTransaction`) so that
/// several processes sharing one database agree; a database one process owns (SQLite, one
/// serialized writer) needs none of it (`NoWriteHooks`).
public protocol SQLWriteHooks {
    /// A change other processes' caches must hear of, committed with this unit of work (a change
    /// feed). PostgreSQL writes it when the unit's group commits (decision 127), so where in the
    /// unit it is called does not matter for locks.
    func recordChange(_ change: StoreChange) throws(StoreError)
    /// E4: a condition that takes the lock on who owns `subscription` when evaluated, held until
    /// the unit of work ends, so units of work deciding one subscription's owner queue behind each
    /// other. The owner read puts it first in its `WHERE`, so the lock is taken in the read's own
    /// statement (one round trip) and before any row is read; nil when this unit holds it already
    /// or the backend needs none.
    func ownershipLock(of subscription: SubscriptionKey) -> SQL?
    /// Taken before an event is appended to the account's history, held until the unit of work
    /// ends, so that within one account no history sequence commits after a higher one.
    func lockHistory(ofAccount accountId: String) throws(StoreError)
    /// The unit of work updated the account's row (its facts version): whatever lock that update
    /// holds until the unit ends need not be taken again.
    func accountRowLocked(_ accountId: String)
}

extension SQLWriteHooks {
    public func accountRowLocked(_ accountId: String) {}
}

/// The hooks of a store one process owns: its writer is serialized already.
public struct NoWriteHooks: SQLWriteHooks {
    public init() {}
    public func recordChange(_ change: StoreChange) throws(StoreError) {}
    public func ownershipLock(of subscription: SubscriptionKey) -> SQL? { nil }
    public func lockHistory(ofAccount accountId: String) throws(StoreError) {}
}

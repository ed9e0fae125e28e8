import Wire

/// The changes committed to a store that several processes share, in commit order:
/// every change that invalidates a cache is written in the same transaction as a sequenced entry,
/// so a process that reads the feed after its last sequence misses nothing, even after losing
/// its connection. A store one process owns (SQLite) has none.
public protocol ChangeFeed: AnyObject, Sendable {
    /// The sequence of the newest committed change; 0 when there is none.
    func latestSequence() throws(StoreError) -> Int64
    /// Changes after `sequence`, at most `limit`, in commit order.
    func changes(after sequence: Int64, limit: Int) throws(StoreError) -> ChangeBatch
    /// Returns once a change may have been committed (a notification), or after `timeout`.
    func waitForChanges(timeout: Duration)
    /// Drops entries committed before `instant` (readers that were away longer start afresh).
    func prune(before instant: Instant) throws(StoreError)
    /// True when this process committed the entry: the code that made the change told this
    /// process's caches already, so a follower passes over it (asked once per entry).
    func madeHere(_ sequence: Int64) -> Bool
}

/// A store shared by several processes: it offers a change feed.
public protocol SharedGatewayStore: GatewayStore {
    /// A feed of its own (with its own notification connection) for one follower.
    func makeChangeFeed() -> any ChangeFeed
    /// The lease of the job called `name`, with a session of its own.
    func makeJobLease(name: String) -> any JobLease
}

import GatewayStore

/// Tunables of the SQLite store, named rather than buried as literals.
struct SQLiteSettings: Sendable {
    /// How long a writer waits for another process's write lock before giving up.
    var busyTimeoutMilliseconds: Int32 = 5_000
    /// Reader connections the pool opens at most (each keeps its own page cache); a read waits
    /// for one when all are busy. Opened on first need, kept for reuse.
    var readerPoolSize = SQLiteStore.defaultReaders
    /// `FULL` fsyncs the WAL at every commit, so a commit the gateway has answered survives a
    /// process kill and a power loss alike (`NORMAL` would survive only the former).
    var synchronous = "FULL"
    /// How many queued write units of work share one commit, and for how long (decision 109).
    var groupCommit = GroupCommitLimits()
}

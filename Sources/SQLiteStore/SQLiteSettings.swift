/// Tunables of the SQLite store, named rather than buried as literals.
struct SQLiteSettings: Sendable {
    /// How long a writer waits for another process's write lock before giving up.
    var busyTimeoutMilliseconds: Int32 = 5_000
    /// Reader connections kept open for reuse; more are opened under load and closed afterwards.
    var readerPoolSize = 4
    /// `FULL` fsyncs the WAL at every commit, so a commit the gateway has answered survives a
    /// process kill and a power loss alike (`NORMAL` would survive only the former).
    var synchronous = "FULL"
}

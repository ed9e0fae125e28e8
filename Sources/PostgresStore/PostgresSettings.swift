import GatewayStore

/// Tunables of the PostgreSQL store, named rather than buried as literals.
public struct PostgresSettings: Sendable, Equatable {
    /// Connections the pool opens at most, per process; a unit of work waits for one when all
    /// are busy (up to `acquireTimeoutMilliseconds`, then `.busy`).
    public var poolSize: Int
    /// `statement_timeout` of every connection: a statement running longer is cancelled and the
    /// unit of work fails as `.busy` (it may succeed later).
    public var statementTimeoutMilliseconds: Int
    /// How long a unit of work waits for a free pooled connection.
    public var acquireTimeoutMilliseconds: Int = 5_000
    /// libpq's `connect_timeout` (seconds), unless the URL sets one.
    public var connectTimeoutSeconds: Int = 2
    /// After a failed connection attempt the pool refuses (`.busy`) for this long before trying
    /// again, doubling up to `maximumBackoffMilliseconds`: a database that is down is not hammered,
    /// and one that is back is found within the maximum.
    public var initialBackoffMilliseconds: Int = 50
    public var maximumBackoffMilliseconds: Int = 1_000
    /// A write that hit a serialization failure or a deadlock (rolled back by the server, so safe to
    /// run again) is run again up to this many times in all before `.busy`.
    public var writeAttempts: Int = 20
    /// How many queued write units of work share one transaction and commit, and for how long
    /// (decision 109).
    public var groupCommit = GroupCommitLimits()
    /// Write groups a process runs at once, each on a pooled connection (decision 127).
    public var writeGroups = PostgresSettings.defaultWriteGroups

    public static let defaultWriteGroups = 4

    public static let defaultPoolSize = 10
    public static let defaultStatementTimeoutMilliseconds = 5_000

    public init(poolSize: Int = PostgresSettings.defaultPoolSize,
                statementTimeoutMilliseconds: Int = PostgresSettings.defaultStatementTimeoutMilliseconds) {
        self.poolSize = poolSize
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
    }
}

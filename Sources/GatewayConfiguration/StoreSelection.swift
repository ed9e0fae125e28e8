import GatewayCore
import GatewayStore
import PostgresStore
import SQLiteStore

/// Which store a configuration names: PostgreSQL when `ISSUE_GATEWAY_DATABASE_URL` is set,
/// else the embedded default, SQLite in `ISSUE_GATEWAY_DATABASE`. `serve` and every CLI command
/// open their store here.
extension Configuration {
    public var postgresSettings: PostgresSettings {
        var settings = PostgresSettings(poolSize: databasePoolSize, statementTimeoutMilliseconds: databaseStatementTimeoutMilliseconds)
        settings.groupCommit = groupCommitLimits
        settings.writeGroups = writeGroups
        return settings
    }

    /// `ISSUE_GATEWAY_WRITE_GROUP_*`, for either store.
    public var groupCommitLimits: GroupCommitLimits {
        GroupCommitLimits(maxUnits: writeGroupUnits, maxOpen: .milliseconds(writeGroupMilliseconds))
    }

    /// Opens (and migrates) the configured store. An unreachable PostgreSQL server is `.busy`.
    public func openStore(log: StoreLog = .standardError) throws(StoreError) -> any GatewayStore {
        if let databaseURL { return try PostgresStore(url: databaseURL, settings: postgresSettings, log: log) }
        return try SQLiteStore(path: databasePath, groupCommit: groupCommitLimits, readers: sqliteReaders, log: log)
    }

    /// Where the store is, for messages: the SQLite path, or the PostgreSQL URL without its password.
    public var storeDescription: String {
        guard let databaseURL else { return databasePath }
        return "PostgreSQL at " + PostgresStore.redacted(databaseURL)
    }
}

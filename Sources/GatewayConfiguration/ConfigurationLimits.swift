import Foundation
import GatewayCore

/// The bounds the configuration enforces, named so they read as policy.
package enum ConfigurationLimits {
    /// tokens.md / http-api.md: a download token lives at most an hour.
    package static let tokenTTLSeconds = 1...3600
    /// An admin secret short enough to guess is refused; generated ones have 43 characters.
    package static let minimumAdminKeyLength = 16
    package static let graceDays = 0...365
    package static let threads = 1...256
    /// A worker pool's threads and waiting jobs (`ISSUE_GATEWAY_STORE_*`, `_APPSTORE_*`).
    package static let poolThreads = 1...1024
    package static let poolQueue = 1...1_000_000
    /// `ISSUE_GATEWAY_CACHE_MEMORY`: from 1 MiB (the caches must hold something) to 1 TiB.
    package static let cacheMemoryBytes = (1 << 20)...(1 << 40)
    /// `ISSUE_GATEWAY_HTTP_BUFFER_MEMORY`: at least room for one largest body (a 6 MiB receipt post).
    package static let httpBufferBytes = (8 << 20)...(1 << 40)
    /// `ISSUE_GATEWAY_SPOOL_MAX`: streamed bodies on disk, all together: a megabyte to 1 TiB.
    package static let spoolBytes = (1 << 20)...(1 << 40)
    /// `ISSUE_GATEWAY_HTTP_CLIENT_REQUESTS`, `_HTTP_CLIENT_POOL_SHARE` (percent of a pool) and
    /// `_HTTP_CLIENT_BUFFER_SHARE` (percent of the buffer budget).
    package static let clientRequests = 1...1_000_000
    package static let clientPoolSharePercent = 1...100
    /// `ISSUE_GATEWAY_ACCOUNT_CREATION_RATE` (per minute) and `_BURST`, per source address.
    package static let accountCreationRate = 1...100_000_000
    package static let accountCreationBurst = 1...100_000_000
    /// `ISSUE_GATEWAY_DEVICE_LIMIT` (E34): 0 for no limit, else live sessions per account.
    package static let deviceLimit = 0...10_000
    /// `ISSUE_GATEWAY_SESSION_IDLE_DAYS` (E34): a day to ten years.
    package static let sessionIdleDays = 1...3_650
    /// `ISSUE_GATEWAY_WEBHOOK_SECRET`: the HMAC key of webhook signatures.
    package static let webhookSecretBytes = 16
    /// `ISSUE_GATEWAY_WEBHOOK_DEAD_LETTER_AFTER`: a minute (a test, a demo) to 30 days.
    package static let webhookDeadLetterAfterSeconds = 60...(30 * 24 * 3600)
    /// `ISSUE_GATEWAY_WEBHOOK_CONCURRENCY`: deliverer threads.
    package static let webhookConcurrency = 1...64
    /// An HMAC key shorter than its hash's output (32 bytes) weakens it (RFC 2104 §3).
    package static let verificationKeyBytes = 32
    /// A subscriber list: at least a megabyte, at most what a disk holds.
    package static let subscriberListBytes = (1 << 20)...(1 << 40)
    /// `ISSUE_GATEWAY_DATABASE_POOL`: PostgreSQL connections per process (the server's
    /// `max_connections` is shared by every process).
    package static let databasePool = 1...1000
    /// `ISSUE_GATEWAY_MALLOC_ARENAS`: 0 leaves glibc's limit.
    package static let mallocArenas = 0...256
    /// `ISSUE_GATEWAY_SQLITE_READERS`: SQLite reader connections in use at once (decision 113).
    package static let sqliteReaders = 1...256
    /// Write units of work sharing one commit, and how long a group stays open (decision 109).
    package static let writeGroupUnits = 1...1024
    package static let writeGroupMilliseconds = 1...1000
    /// `ISSUE_GATEWAY_WRITE_GROUPS`: PostgreSQL write groups at once (decision 127).
    package static let writeGroups = 1...64
    /// `ISSUE_GATEWAY_DATABASE_STATEMENT_TIMEOUT`, milliseconds: from 10 ms to an hour.
    package static let databaseStatementTimeoutMilliseconds = 10...3_600_000
    /// A URL longer than this is refused (libpq takes connection strings, not documents).
    package static let maxDatabaseURLBytes = 4096
    /// A `--config` file larger than this is refused before parsing.
    package static let maxConfigFileBytes = 1 << 20
}


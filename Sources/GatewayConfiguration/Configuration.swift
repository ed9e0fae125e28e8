import AppStoreKit
import DownloadTokens
import Entitle
import Foundation
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import OpenIDConnect
import PostgresStore
import SQLiteStore

/// Every setting of the gateway (http-api.md, Configuration), parsed and validated once at start.
/// Loaded by `Configuration.load(environment:configFile:)`; the defaults below are the spec's.
public struct Configuration: Sendable, Equatable {
    public var listen = ListenAddress(host: "127.0.0.1", port: 8080)
    public var databasePath = "data/issue-gateway.sqlite"
    /// A `postgresql://` URL: the PostgreSQL store, for several gateway processes on one
    /// database; nil: the SQLite file `databasePath`.
    public var databaseURL: String?
    /// The PostgreSQL store's connections per process, and its `statement_timeout`.
    public var databasePoolSize = PostgresSettings.defaultPoolSize
    public var databaseStatementTimeoutMilliseconds = PostgresSettings.defaultStatementTimeoutMilliseconds
    /// The SQLite store's reader connections in use at once (decision 113).
    public var sqliteReaders = SQLiteStore.defaultReaders
    /// Group commit on either store: queued write units of work per commit at most, and the
    /// milliseconds a group stays open at most (decision 109).
    public var writeGroupUnits = GroupCommitLimits.defaultMaxUnits
    public var writeGroupMilliseconds = GroupCommitLimits.defaultMaxOpenMilliseconds
    /// PostgreSQL: write groups a process runs at once (decision 127).
    public var writeGroups = PostgresSettings.defaultWriteGroups
    /// The folder imported when the database has no publications; nil (`none`) skips it.
    public var catalogFolder: String? = "catalog"
    /// nil: generated on first start and kept beside the database (`GeneratedSecrets`).
    public var adminKey: String?
    /// nil: generated on first start and kept beside the database. The first signs, all verify.
    public var tokenKeys: TokenKeySet?
    public var tokenTTLSeconds = 300
    /// The key of print subscribers' verification hashes (E29); generated on first start and kept
    /// with the other generated secrets when unset.
    public var verificationKey: String?
    /// E30: the proxies whose `X-Forwarded-For` is believed.
    package var trustedProxies: [NetworkRange] = []
    /// readers.md E31: the OpenID Connect providers readers sign in with, read from the file
    /// `ISSUE_GATEWAY_IDENTITY_PROVIDERS` names; none: sign-in with an ID token is off.
    public var identityProviders: [IdentityProvider] = []
    /// The largest subscriber list taken (http-api.md: 1 GiB).
    public var subscriberListMaxBytes = 1 << 30
    public var tokenIssuer = "issue-gateway"
    public var cdnBaseURL = "http://127.0.0.1:8081"
    /// The download URL format and its keys (`ISSUE_GATEWAY_EDGE_*`); `jws` by default.
    public var edge = EdgeSettings()
    public var appStoreProductionURL = VerifyReceiptConfiguration.appleProductionURL.absoluteString
    public var appStoreSandboxURL = VerifyReceiptConfiguration.appleSandboxURL.absoluteString
    public var appStoreSharedSecret: String?
    /// DER or PEM files that V2 signatures must chain to; empty: V2 refused.
    public var appleRootCertificatePaths: [String] = []
    public var bundleId: String?
    public var appAppleId: Int64?
    /// App Store Server API credentials (`ISSUE_GATEWAY_APPSTORE_API_*`): all three or none;
    /// none leaves the Server API off and the gateway works from receipts and signed data alone.
    public var appStoreAPIKeyId: String?
    public var appStoreAPIIssuerId: String?
    public var appStoreAPIPrivateKeyPath: String?
    public var appStoreAPIProductionURL = ServerAPIConfiguration.appleProductionURL.absoluteString
    public var appStoreAPISandboxURL = ServerAPIConfiguration.appleSandboxURL.absoluteString
    public var acceptSandbox = true
    /// What the engine is told of this configuration (E3, E8): the server's and the CLI's.
    public var entitlementPolicy: EntitlementPolicy { EntitlementPolicy(acceptSandbox: acceptSandbox, graceDays: graceDays) }
    public var transferPolicy = OwnershipPolicy.transfer
    public var graceDays = 0
    public var threads: Int
    /// The worker pool for store reads and writes: more threads than cores (at least
    /// `minimumStoreThreads`), as a write waits for its group's commit, and the writers that
    /// queue while one group commits share the next one (decision 109).
    public var storeThreads: Int
    public var storeQueue = 1024
    /// The worker pool for the reader apps' reads (lists, entitlements, tokens; decision 123); nil
    /// sizes it by the store (`storeReadPoolThreads`).
    public var storeReadThreads: Int?
    public var storeReadQueue = 1024
    /// The worker pool for calls to Apple, sized for waiting: a verifyReceipt call can block for
    /// about 46 s (two attempts and backoff), so threads are cheap waiters here, not CPU.
    public var appStoreThreads = 32
    public var appStoreQueue = 256
    /// Bytes that all in-memory caches together may hold (`CacheBudget` shares them out).
    public var cacheMemoryBytes = CacheBudget.defaultTotalBytes
    /// malloc arenas the threads share (`MallocArenas`; 0: glibc's own eight per core): one per
    /// core by default, at least two.
    public var mallocArenas = max(2, Configuration.defaultThreads)
    /// Bytes the HTTP server may hold in request bodies and unsent answers, all connections
    /// together (`HTTPServerConfiguration.maxBufferedBytes`).
    public var httpBufferBytes = HTTPServerConfiguration().maxBufferedBytes
    /// Where streamed request bodies (subscriber lists) are kept while they are read; nil: a
    /// `spool` folder beside the database (`spoolDirectoryPath`).
    public var spoolDirectory: String?
    /// Bytes all spooled bodies together may hold on disk (`HTTPServerConfiguration.maxSpooledBytes`).
    public var spoolMaxBytes = HTTPServerConfiguration().maxSpooledBytes
    /// Fairness between clients by source address (`HTTPServerConfiguration.maxInFlightPerClient`
    /// and `.maxPoolSharePerClient`, here in percent).
    public var httpClientRequests = HTTPServerConfiguration().maxInFlightPerClient
    public var httpClientPoolSharePercent = Int(HTTPServerConfiguration().maxPoolSharePerClient * 100)
    /// The percent of `httpBufferBytes` one client may hold (`.maxBufferSharePerClient`).
    public var httpClientBufferSharePercent = Int(HTTPServerConfiguration().maxBufferSharePerClient * 100)
    /// Unauthenticated `POST /v1/accounts` per source address: a token bucket of `burst`
    /// refilled at `perMinute` (past it: 429 `rate_limited` with `Retry-After`).
    public var accountCreationPerMinute = 60
    public var accountCreationBurst = 30
    /// Failed access-code redemptions (E22) per account and per client: a code is ~59 random
    /// bits, and this keeps guessing slower still.
    public var redemptionFailuresPerMinute = 10
    public var redemptionFailuresBurst = 10
    /// E34: live sessions per account (`ISSUE_GATEWAY_DEVICE_LIMIT`, 0 for none) and the days an
    /// unused session lives (`ISSUE_GATEWAY_SESSION_IDLE_DAYS`).
    public var deviceLimit = 0
    public var sessionIdleDays = 90
    /// APNs and webhooks: off unless configured.
    public var push = PushSettings()
    /// Google Play: off unless packages and a service account are configured.
    public var googlePlay = GooglePlaySettings()
    /// Stripe (web sales): off unless configured.
    public var stripe = StripeConfiguration()

    public init(threads: Int = Configuration.defaultThreads) {
        self.threads = threads
        storeThreads = max(Configuration.minimumStoreThreads, Configuration.defaultThreads)
    }

    /// The reads' pool: on SQLite a read is CPU in this process, and more threads than cores only
    /// take turns on them (and on SQLite's locks), so one a core, at least two; on PostgreSQL a
    /// read waits on its round trips, so as many as the store pool.
    public var storeReadPoolThreads: Int {
        storeReadThreads ?? (databaseURL == nil ? max(2, Configuration.defaultThreads) : storeThreads)
    }

    /// Store threads by default at least: enough writers waiting on a flush to fill a group.
    public static let minimumStoreThreads = 16

    public static var defaultThreads: Int { HTTPServerConfiguration.coreCount }

    /// `ISSUE_GATEWAY_SPOOL_DIRECTORY`, else `spool` in the database's folder, where the gateway
    /// keeps its other files (the generated secrets) and which it owns.
    public var spoolDirectoryPath: String {
        spoolDirectory ?? URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("spool").path
    }
}


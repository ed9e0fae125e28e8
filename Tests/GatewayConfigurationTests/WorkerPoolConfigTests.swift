import DownloadTokens
import Entitle
import Foundation
@testable import GatewayConfiguration
import HTTPServer
import SQLiteStore
import TestSupport
import Testing
import GatewayTesting

/// `ISSUE_GATEWAY_STORE_*`, `ISSUE_GATEWAY_APPSTORE_*` and `ISSUE_GATEWAY_GOOGLE_THREADS`/`_QUEUE`:
/// the API's worker pools (bulkheads), beside the Stripe pool (its size a constant).
@Suite struct WorkerPoolConfigTests {
    /// The store's writers wait for their group's commit (decision 109): at least 16 threads.
    @Test func defaultsSizeTheStoreForGroupCommitAndAppleForWaiting() throws {
        let c = try Configuration.load(environment: [:])
        #expect(c.workerPools == [
            .store: WorkerPoolSize(threads: max(16, ProcessInfo.processInfo.activeProcessorCount), queueLimit: 1024),
            .storeReads: WorkerPoolSize(threads: max(2, ProcessInfo.processInfo.activeProcessorCount), queueLimit: 1024),
            .appStore: WorkerPoolSize(threads: 32, queueLimit: 256),
            .stripe: WorkerPoolSize(threads: 16, queueLimit: 256),
            .googlePlay: WorkerPoolSize(threads: 16, queueLimit: 256),
        ])
    }

    @Test func everyPoolVariableIsRead() throws {
        let c = try Configuration.load(environment: [
            "ISSUE_GATEWAY_STORE_THREADS": "3", "ISSUE_GATEWAY_STORE_QUEUE": "50",
            "ISSUE_GATEWAY_STORE_READ_THREADS": "5", "ISSUE_GATEWAY_STORE_READ_QUEUE": "60",
            "ISSUE_GATEWAY_APPSTORE_THREADS": "64", "ISSUE_GATEWAY_APPSTORE_QUEUE": "10",
            "ISSUE_GATEWAY_GOOGLE_THREADS": "7", "ISSUE_GATEWAY_GOOGLE_QUEUE": "20",
        ])
        #expect(c.workerPools == [.store: WorkerPoolSize(threads: 3, queueLimit: 50),
                                  .storeReads: WorkerPoolSize(threads: 5, queueLimit: 60),
                                  .appStore: WorkerPoolSize(threads: 64, queueLimit: 10),
                                  .stripe: WorkerPoolSize(threads: 16, queueLimit: 256),
                                  .googlePlay: WorkerPoolSize(threads: 7, queueLimit: 20)])
    }

    /// Decision 123: PostgreSQL's reads wait on round trips, so their pool follows the store's;
    /// a setting wins over either default, and one out of range is refused.
    @Test func theReadsPoolFollowsTheBackend() throws {
        let postgres = try Configuration.load(environment: ["ISSUE_GATEWAY_DATABASE_URL": "postgresql://gateway@localhost/gateway",
                                                            "ISSUE_GATEWAY_STORE_THREADS": "24"])
        #expect(postgres.workerPools[.storeReads] == WorkerPoolSize(threads: 24, queueLimit: 1024))
        let set = try Configuration.load(environment: ["ISSUE_GATEWAY_DATABASE_URL": "postgresql://gateway@localhost/gateway",
                                                       "ISSUE_GATEWAY_STORE_READ_THREADS": "3"])
        #expect(set.workerPools[.storeReads]?.threads == 3)
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["ISSUE_GATEWAY_STORE_READ_THREADS": "0"])
        }
    }

    /// The runtime hands the pools to the server: the receipts route (which calls Apple) and the
    /// store routes find theirs.
    @Test func theServerGetsThePools() throws {
        var configuration = Configuration(threads: 1)
        configuration.appStoreThreads = 5
        #expect(configuration.workerPools[.appStore]?.threads == 5)
        let database = TemporaryDatabase()
        configuration.catalogFolder = nil
        configuration.adminKey = GatewayHarness.adminKey
        configuration.tokenKeys = try TokenKeySet(keys: [TokenKey(kid: GatewayHarness.tokenKid, secret: GatewayHarness.tokenSecret)])
        let runtime = try GatewayRuntime.make(configuration: configuration, store: try database.open(), pollerSettings: nil)
        defer { runtime.server.waitUntilStopped() }
        #expect(runtime.server.configuration.workerPools == configuration.workerPools)
        let receipts = runtime.api.makeRouter().routes.first { $0.pattern.text == "/v1/accounts/{accountId}/receipts" }
        #expect(receipts?.execution == .appStore)
        // The reader apps' reads run on their own pool, writes and reports on the store's.
        let routes = runtime.api.makeRouter().routes
        func execution(_ method: String, _ pattern: String) -> Execution? {
            routes.first { $0.method == method && $0.pattern.text == pattern }?.execution
        }
        #expect(execution("GET", "/v1/accounts/{accountId}/issues") == .storeReads)
        #expect(execution("GET", "/v1/accounts/{accountId}/entitlements") == .storeReads)
        #expect(execution("POST", "/v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token") == .storeReads)
        #expect(execution("POST", "/v1/accounts/{accountId}/devices") == .store)
        #expect(execution("GET", "/v1/publications/{publicationId}/issues/{issueId}/circulation") == .store)
    }
}

import Entitle
import Foundation
import GatewayCrypto
import GatewayCore
import GatewayHTTP
import GatewayStore
import HTTPServer
import Lifecycle
import Metrics
import OpenIDConnect
import StripeKit

/// Everything `issue-gateway serve` runs: the API on the HTTP server, the status poller, the
/// notification backfill and the catalog watcher. Tests build it the same way on an ephemeral port.
public struct GatewayRuntime: Sendable {
    /// What the runtime was built from, secrets resolved.
    public let configuration: Configuration
    package let core: CoreServices
    /// The controllers of http-api.md over `core`.
    package let api: HTTPAPI
    public let server: HTTPServer
    public let poller: StatusPoller?
    /// Replays Apple's notification history on start and periodically; nil without App Store
    /// Server API credentials.
    public var backfill: NotificationBackfill? { core.intake.backfill }
    public let catalogWatcher: CatalogWatcher
    /// Pushes and webhooks: empty unless configured, so nothing is sent.
    public let pushServices: [any BackgroundService]
    /// On a store several processes share: keeps this process's caches coherent with theirs.
    public let changeFeedFollower: ChangeFeedFollower?
    /// Probes the store for `/healthz`.
    public var storeHealth: StoreHealthMonitor { core.operations.storeHealth }

    /// The background services `serve` runs beside the server, in start order.
    public var backgroundServices: [any BackgroundService] {
        [catalogWatcher, storeHealth, core.operations.downloads, core.sessionTouches, core.operations.reportRows]
            + (changeFeedFollower.map { [$0] } ?? []) + (poller.map { [$0] } ?? [])
            + (backfill.map { [$0] } ?? []) + (core.intake.acknowledger.map { [$0] } ?? [])
            + (core.intake.puller.map { [$0] } ?? []) + (core.intake.voidedPass.map { [$0] } ?? []) + pushServices
    }

    /// What `issue-gateway serve` runs: the real App Store clients built from `configuration`
    /// (whose secrets must be resolved), the system clock, the status poller with its standard
    /// settings, the HTTP server as the configuration says.
    public static func forServing(configuration: Configuration, store: any GatewayStore,
                                  accessLog: AccessLog?) throws(StartError) -> GatewayRuntime {
        try make(configuration: configuration, store: store, accessLog: accessLog)
    }

    /// `configuration` must have its secrets resolved. `appStore` defaults to the real clients
    /// built from the configuration; `pollerSettings` nil runs no poller.
    package static func make(configuration: Configuration, store: any GatewayStore, clock: any GatewayClock = SystemClock(),
                     appStore: AppStoreServices? = nil, http: HTTPServerConfiguration? = nil, accessLog: AccessLog? = nil,
                     pollerSettings: StatusPollerSettings? = .standard, random: any RandomBytesSource = SystemRandom(),
                     limits: APILimits = .standard, stripeAPI: (any StripeAPI)? = nil,
                     googlePlay: GooglePlayServices? = nil,
                     identityVerifier: (any IdentityVerifying)? = nil) throws(StartError) -> GatewayRuntime {
        guard let adminKey = configuration.adminKey, let tokenKeys = configuration.tokenKeys else {
            throw StartError(description: "the admin key and token keys must be resolved before the API starts")
        }
        let metrics = Metrics()
        let services: AppStoreServices
        if let appStore {
            services = appStore
        } else {
            let calls = GatewayCounters.appStoreCallObserver(metrics)
            services = try AppStoreServices.from(configuration, clock: clock, counters: calls,
                                                 serverAPICalls: GatewayCounters.serverAPICallObserver(metrics))
        }
        var settings = http ?? HTTPServerConfiguration()
        if http == nil {
            settings.host = configuration.listen.host
            settings.port = Int(configuration.listen.port)
            settings.threads = configuration.threads
            settings.maxBufferedBytes = configuration.httpBufferBytes
            settings.bodySpoolDirectory = configuration.spoolDirectoryPath
            settings.maxSpooledBytes = configuration.spoolMaxBytes
            settings.maxInFlightPerClient = configuration.httpClientRequests
            settings.maxPoolSharePerClient = Double(configuration.httpClientPoolSharePercent) / 100
            settings.maxBufferSharePerClient = Double(configuration.httpClientBufferSharePercent) / 100
        }
        // The API's bulkheads are sized by its configuration, also under a test's server settings.
        settings.workerPools = configuration.workerPools
        // The edge check decides on these: an edge that appends a second copy must not let the
        // reader choose which path is checked (http-api.md, Edge).
        settings.singletonFields = HTTPServerConfiguration.standardSingletonFields + ["X-Original-URI", "X-Original-Method"]
        // Made before the server, so that the poller and requested backfills queue their calls to
        // Apple on the App Store pool the routes use; the server shuts the pools down.
        let pools = WorkerPools(settings)
        let appStoreWork = WorkPool { job in pools.submit(to: .appStore, job) }
        var googlePlayServices = googlePlay
        if googlePlayServices == nil { googlePlayServices = try configuration.googlePlay.services(clock: clock) }
        let core = try CoreServices(store: store, appStore: services, metrics: metrics, clock: clock, random: random,
                                    adminKey: adminKey, cacheMemoryBytes: configuration.cacheMemoryBytes,
                                    policy: configuration.entitlementPolicy, ownership: configuration.transferPolicy,
                                    events: EventPolicy(webhooks: configuration.push.webhookURL != nil,
                                                        pushes: configuration.push.apnsConfigured),
                                    appStoreWork: appStoreWork, stripe: configuration.stripe.settings,
                                    stripeAPI: stripeAPI ?? configuration.stripe.client,
                                    googlePlay: googlePlayServices,
                                    stripeWork: WorkPool { job in pools.submit(to: .stripe, job) },
                                    googlePlayWork: WorkPool { job in pools.submit(to: .googlePlay, job) },
                                    storeWork: WorkPool { job in pools.submit(to: .store, job) },
                                    identityProviders: OpenIDProviders(configuration.identityProviders),
                                    sessions: SessionPolicy(deviceLimit: configuration.deviceLimit,
                                                            idleDays: configuration.sessionIdleDays),
                                    identityVerifier: identityVerifier)
        let apiSettings = APISettings(
            tokenKeys: tokenKeys, tokenIssuer: configuration.tokenIssuer, tokenTTLSeconds: configuration.tokenTTLSeconds,
            edge: try configuration.edge.signer(cdnBase: configuration.cdnBaseURL),
            accountCreation: .init(perMinute: configuration.accountCreationPerMinute, burst: configuration.accountCreationBurst),
            redemptionFailures: .init(perMinute: configuration.redemptionFailuresPerMinute,
                                      burst: configuration.redemptionFailuresBurst),
            limits: limits, verificationKey: try verificationKey(configuration, random: random),
            subscriberListMaxBytes: configuration.subscriberListMaxBytes, trustedProxies: configuration.trustedProxies)
        let api = try HTTPAPI(readers: core.readers, catalogServices: core.catalogServices, intake: core.intake,
                              support: core.support, operations: core.operations,
                              print: try core.print(verificationKey: apiSettings.verificationKey), reports: core.reports,
                              ground: core.ground,
                              settings: apiSettings)
        metrics.addCaches([("account_answers", { [core] in core.accounts.answerStats }),
                           ("account_facts", { [core] in core.accounts.factsStats }),
                           ("principals", { [core] in core.authenticator.stats }),
                           ("verified_tokens", { [api] in api.tokenMemo.stats }),
                           ("compressed_lists", { [api] in api.compressed.stats })])
        let server = HTTPServer(configuration: settings, router: api.makeRouter(), metrics: metrics, accessLog: accessLog,
                                workers: pools)
        let poller = pollerSettings.map {
            StatusPoller(settings: $0, store: store, ingestion: core.intake.appStore, clock: clock, counters: core.counters,
                         work: appStoreWork)
        }
        let follower = (store as? any SharedGatewayStore).map {
            ChangeFeedFollower(feed: $0.makeChangeFeed(), catalog: core.catalog, accounts: core.accounts,
                               authenticator: core.authenticator, coherence: core.coherence, clock: clock)
        }
        return GatewayRuntime(configuration: configuration, core: core, api: api, server: server, poller: poller,
                              catalogWatcher: CatalogWatcher(catalog: core.catalog),
                              pushServices: try PushServices.make(core.delivery, configuration: configuration.push),
                              changeFeedFollower: follower)
    }
}

extension GatewayRuntime {
    /// E29's hashing key. `serve` resolves it (`GeneratedSecrets`); a runtime built from a
    /// configuration without one (tests) gets a fresh key for its own lifetime.
    private static func verificationKey(_ configuration: Configuration, random: any RandomBytesSource)
        throws(StartError) -> [UInt8] {
        if let key = configuration.verificationKey { return Array(key.utf8) }
        do { return try random.randomBytes(count: ConfigurationLimits.verificationKeyBytes) } catch {
            throw StartError(description: "no randomness for the verification key")
        }
    }

    /// `issue-gateway appstore migrate`: every stored receipt's subscriptions moved to the App
    /// Store Server API.
    public func migrateReceiptsToServerAPI(progress: (String) -> Void) throws(StartError) -> AppStoreMigrationReport {
        try core.intake.appStore.migrateReceiptsToServerAPI(progress: progress)
    }
}

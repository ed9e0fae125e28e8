import DownloadTokens
import Entitle
import GatewayCrypto
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// The composition root of the API: every service a route needs, built once at start and shared
/// by all event loops and workers. Routes live in `Routes/`, one file per area of http-api.md.
public final class Gateway: Sendable {
    let configuration: Configuration
    let limits: APILimits
    let store: any GatewayStore
    let clock: any GatewayClock
    let catalog: CatalogCache
    let accounts: AccountFactsCache
    let authenticator: Authenticator
    let tokenKeys: TokenKeySet
    let signer: TokenSigner
    let tokenMemo: TokenMemo
    /// gzip-coded issue and catalog lists by entity tag (http-api.md, cheap polling).
    let compressed: CompressedBodies
    let random: any RandomBytesSource
    let entitlementPolicy: EntitlementPolicy
    let appStore: AppStoreIngestion
    /// Replays Apple's notification history (issue #12); nil without Server API credentials.
    let backfill: NotificationBackfill?
    let metrics: Metrics
    let counters: GatewayCounters
    /// Unauthenticated account creation per source address (issue #10, fairness).
    let accountCreationLimit: KeyedRateLimiter<String>
    /// Failed code redemptions, keyed `account:<id>` and `client:<ClientKey>` (E22).
    let redemptionFailures: KeyedRateLimiter<String>
    /// Refreshes from Apple per account (issue #12).
    let refreshLimit: KeyedRateLimiter<String>
    /// Which events the store keeps for pushes and webhooks (issue #16); `.off` unless configured.
    let events: EventPolicy
    let pushCounters: PushCounters
    /// Whether the store answers (`/healthz`, issue 11).
    let storeHealth: StoreHealthMonitor
    /// Whether caches may be served from: always on a store one process owns, while the change
    /// feed is followed on a shared one (issue 11).
    let coherence = CacheCoherence()

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// `configuration` must have its secrets resolved (`GeneratedSecrets.resolve`).
    init(configuration: Configuration, store: any GatewayStore, appStore: AppStoreServices,
         metrics: Metrics, clock: any GatewayClock = SystemClock(), random: any RandomBytesSource = SystemRandom(),
         limits: APILimits = .standard) throws(StartError) {
        guard let adminKey = configuration.adminKey, let tokenKeys = configuration.tokenKeys else {
            throw StartError(description: "the admin key and token keys must be resolved before the API starts")
        }
        self.configuration = configuration
        self.limits = limits
        self.store = store
        self.clock = clock
        self.random = random
        self.metrics = metrics
        self.tokenKeys = tokenKeys
        let budget = CacheBudget(totalBytes: configuration.cacheMemoryBytes)
        tokenMemo = TokenMemo(budgetBytes: budget.tokenBytes)
        compressed = CompressedBodies(budgetBytes: budget.compressedBytes)
        counters = GatewayCounters(metrics)
        accountCreationLimit = KeyedRateLimiter(.init(perMinute: configuration.accountCreationPerMinute,
                                                      burst: configuration.accountCreationBurst))
        redemptionFailures = KeyedRateLimiter(.init(perMinute: configuration.redemptionFailuresPerMinute,
                                                    burst: configuration.redemptionFailuresBurst))
        refreshLimit = KeyedRateLimiter(.init(perMinute: limits.refreshesPerMinute, burst: limits.refreshBurst))
        entitlementPolicy = configuration.entitlementPolicy
        events = EventPolicy(webhooks: configuration.push.webhookURL != nil, pushes: configuration.push.apnsConfigured)
        pushCounters = PushCounters(metrics)
        storeHealth = StoreHealthMonitor(store: store)
        do {
            signer = try TokenSigner(keys: tokenKeys, issuer: configuration.tokenIssuer,
                                     lifetimeSeconds: Int64(configuration.tokenTTLSeconds))
            authenticator = try Authenticator(store: store, adminKey: adminKey, cacheBytes: budget.principalBytes,
                                              coherence: coherence)
            catalog = try CatalogCache(store: store)
        } catch {
            throw StartError(description: "\(error)")
        }
        accounts = AccountFactsCache(store: store, budget: budget, coherence: coherence)
        metrics.addCaches([("account_answers", { [accounts] in accounts.answerStats }),
                           ("account_facts", { [accounts] in accounts.factsStats }),
                           ("principals", { [authenticator] in authenticator.stats }),
                           ("verified_tokens", { [tokenMemo] in tokenMemo.stats }),
                           ("compressed_lists", { [compressed] in compressed.stats })])
        let ingestion = AppStoreIngestion(services: appStore, store: store, accounts: accounts,
                                          ownership: configuration.transferPolicy, events: events, clock: clock,
                                          counters: counters)
        self.appStore = ingestion
        backfill = appStore.serverAPI.map {
            NotificationBackfill(settings: .standard, ingestion: ingestion, serverAPI: $0,
                                 environments: configuration.acceptSandbox ? [.production, .sandbox] : [.production])
        }
    }

    /// Every route of http-api.md on one frozen router, answering the server's own errors in the
    /// spec's shape.
    func makeRouter() -> Router {
        let builder = RouterBuilder()
        let router = APIRouterBuilder(builder)
        registerOperationsRoutes(router)
        registerCatalogRoutes(router)
        registerKeyRoutes(router)
        registerAccountRoutes(router)
        registerTokenRoutes(router)
        registerAppStoreRoutes(router)
        registerEdgeRoutes(router)
        registerLookupRoutes(router)
        registerExplanationRoutes(router)
        registerGrantRoutes(router)
        registerCodeRoutes(router)
        registerHistoryRoutes(router)
        registerTimelineRoutes(router)
        registerConsoleRoutes(router)
        registerServerAPIRoutes(router)
        registerDeviceRoutes(router)
        return builder.freeze(errors: HTTPServerError.apiShape)
    }

    /// What the engine says about one account now (E1–E20).
    func entitlements(of accountId: String) throws(APIError) -> AccountEntitlements {
        let facts = try stored { () throws(StoreError) in try accounts.facts(of: accountId) }
        return evaluate(facts, catalog.state, clock.now())
    }

    func evaluate(_ facts: AccountFacts, _ state: CatalogState, _ now: Instant) -> AccountEntitlements {
        EntitlementEngine.evaluate(catalog: state.entitlementCatalog, facts: facts, policy: entitlementPolicy, now: now)
    }
}

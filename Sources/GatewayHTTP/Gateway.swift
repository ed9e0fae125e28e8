import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Metrics
import Wire

/// What the HTTP layer is configured with besides the core: token signing, download URLs and
/// per-client limits.
package struct APISettings: Sendable {
    package var tokenKeys: TokenKeySet
    package var tokenIssuer: String
    package var tokenTTLSeconds: Int
    package var cdnBaseURL: String
    /// Unauthenticated account creation per source address (fairness).
    package var accountCreation: KeyedRateLimiter<String>.Rate
    /// Failed code redemptions per account and per client (E22).
    package var redemptionFailures: KeyedRateLimiter<String>.Rate
    package var limits: APILimits

    package init(tokenKeys: TokenKeySet, tokenIssuer: String, tokenTTLSeconds: Int, cdnBaseURL: String,
                 accountCreation: KeyedRateLimiter<String>.Rate, redemptionFailures: KeyedRateLimiter<String>.Rate,
                 limits: APILimits = .standard) {
        self.tokenKeys = tokenKeys; self.tokenIssuer = tokenIssuer; self.tokenTTLSeconds = tokenTTLSeconds
        self.cdnBaseURL = cdnBaseURL; self.accountCreation = accountCreation; self.redemptionFailures = redemptionFailures
        self.limits = limits
    }
}

/// The routes of http-api.md over the core's services, built once at start and shared by all
/// event loops and workers. Routes live in `Routes/`, one file per area of http-api.md.
package final class Gateway: Sendable {
    package let core: CoreServices
    package let settings: APISettings
    package var limits: APILimits { settings.limits }
    package var tokenKeys: TokenKeySet { settings.tokenKeys }
    package let signer: TokenSigner
    package let tokenMemo: TokenMemo
    /// gzip-coded issue and catalog lists by entity tag (http-api.md, cheap polling).
    package let compressed: CompressedBodies
    package let accountCreationLimit: KeyedRateLimiter<String>
    /// Failed code redemptions, keyed `account:<id>` and `client:<ClientKey>` (E22).
    package let redemptionFailures: KeyedRateLimiter<String>
    /// Refreshes from Apple per account.
    package let refreshLimit: KeyedRateLimiter<String>
    package let codes: AccessCodes
    package let explanations: Explanations

    package var store: any GatewayStore { core.store }
    package var clock: any GatewayClock { core.clock }
    package var random: any RandomBytesSource { core.random }
    package var catalog: CatalogCache { core.catalog }
    package var accounts: AccountFactsCache { core.accounts }
    package var authenticator: Authenticator { core.authenticator }
    package var appStore: AppStoreIngestion { core.appStore }
    package var backfill: NotificationBackfill? { core.backfill }
    package var metrics: Metrics { core.metrics }
    package var counters: GatewayCounters { core.counters }
    package var events: EventPolicy { core.events }
    package var pushCounters: PushCounters { core.pushCounters }
    package var storeHealth: StoreHealthMonitor { core.storeHealth }
    package var coherence: CacheCoherence { core.coherence }

    package init(core: CoreServices, settings: APISettings) throws(StartError) {
        self.core = core
        self.settings = settings
        tokenMemo = TokenMemo(budgetBytes: core.budget.tokenBytes)
        compressed = CompressedBodies(budgetBytes: core.budget.compressedBytes)
        accountCreationLimit = KeyedRateLimiter(settings.accountCreation)
        redemptionFailures = KeyedRateLimiter(settings.redemptionFailures)
        refreshLimit = KeyedRateLimiter(.init(perMinute: settings.limits.refreshesPerMinute, burst: settings.limits.refreshBurst))
        codes = AccessCodes(store: core.store, catalog: core.catalog, accounts: core.accounts, clock: core.clock,
                            identifiers: core.identifiers, events: core.events)
        explanations = Explanations(store: core.store, accounts: core.accounts, catalog: core.catalog,
                                    entitlements: core.entitlements, clock: core.clock)
        do {
            signer = try TokenSigner(keys: settings.tokenKeys, issuer: settings.tokenIssuer,
                                     lifetimeSeconds: Int64(settings.tokenTTLSeconds))
        } catch {
            throw StartError(description: "\(error)")
        }
    }

    package func newSecret() throws(APIError) -> String { try core.identifiers.newSecret() }
    package func newIdentifier() throws(APIError) -> String { try core.identifiers.newIdentifier() }
    package func hash(_ secret: String) throws(APIError) -> String { try core.identifiers.hash(secret) }

    /// Every route of http-api.md on one frozen router, answering the server's own errors in the
    /// spec's shape.
    package func makeRouter() -> Router {
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
    package func entitlements(of accountId: String) throws(APIError) -> AccountEntitlements {
        try core.entitlements(of: accountId)
    }

    package func evaluate(_ facts: AccountFacts, _ state: CatalogState, _ now: Instant) -> AccountEntitlements {
        core.entitlements.evaluate(facts, state, now)
    }
}

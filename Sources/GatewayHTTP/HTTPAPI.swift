import DownloadTokens
import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Metrics
import Wire

/// The API of http-api.md over the core's service groups: one controller per area, each given
/// only the services its routes need, composed onto one frozen router. Built once at start and shared by all
/// event loops and workers.
package struct HTTPAPI: Sendable {
    package let settings: APISettings
    /// Verified download tokens (the edge check's memo).
    package let tokenMemo: TokenMemo
    /// gzip-coded issue and catalog lists by entity tag (http-api.md, cheap polling).
    package let compressed: CompressedBodies
    /// The reader's lists and entitlements (its fast path is called by tests directly).
    package let accounts: AccountController
    /// Download tokens (its fast path is called by tests directly).
    package let tokens: TokenController
    package let controllers: [any APIController]
    private let authenticator: Authenticator

    package init(readers: ReaderServices, catalogServices: CatalogServices, intake: IntakeServices, support: SupportServices,
                 operations: OperationsServices, print: PrintServices, reports: ReportServices, ground: RequestGround,
                 settings: APISettings) throws(StartError) {
        self.settings = settings
        authenticator = ground.authenticator
        let signer: TokenSigner
        do {
            signer = try TokenSigner(keys: settings.tokenKeys, issuer: settings.tokenIssuer,
                                     lifetimeSeconds: Int64(settings.tokenTTLSeconds))
        } catch {
            throw StartError(description: "\(error)")
        }
        let tokenMemo = TokenMemo(budgetBytes: ground.budget.tokenBytes)
        let compressed = CompressedBodies(budgetBytes: ground.budget.compressedBytes)
        self.tokenMemo = tokenMemo
        self.compressed = compressed
        let catalog = catalogServices.cache
        let access = Access(authenticator: ground.authenticator, readers: readers.accounts, catalog: catalog)
        let entitlements = readers.entitlements
        let requesters = Requesters(addresses: ClientAddressResolver(trustedProxies: settings.trustedProxies))
        let lists = ListResponder(compressed: compressed)
        let limits = settings.limits
        accounts = AccountController(
            access: access, readers: readers.accounts, catalog: catalog, entitlements: entitlements, requesters: requesters,
            appStore: intake.appStore, facts: intake.facts, postedStatuses: intake.postedStatuses, lists: lists,
            accountCreationLimit: KeyedRateLimiter(settings.accountCreation), limits: limits, clock: ground.clock)
        tokens = TokenController(access: access, entitlements: entitlements, requesters: requesters, signer: signer,
                                 settings: settings, random: ground.random, counters: ground.counters, clock: ground.clock,
                                 downloads: operations.downloads)
        // Registered in this order: the router does not depend on it, `/metrics` labels do not either.
        controllers = [
            OperationsController(storeHealth: operations.storeHealth, metrics: operations.metrics),
            CatalogController(access: access, catalog: catalog, changes: catalogServices.changes, lists: lists,
                              clock: ground.clock),
            KeyController(access: access, keys: catalogServices.keys),
            accounts,
            tokens,
            EdgeController(tokenKeys: settings.tokenKeys, tokenMemo: tokenMemo, clock: ground.clock, counters: ground.counters),
            LookupController(access: access, lookups: support.lookups, identities: readers.identities),
            ExplanationController(access: access, explanations: support.explanations, entitlements: entitlements,
                                  requesters: requesters, clock: ground.clock),
            GrantController(access: access, grants: readers.grants, catalog: catalog, identifiers: ground.identifiers,
                            clock: ground.clock),
            CodeController(access: access, codes: readers.codes, entitlements: entitlements,
                           redemptionFailures: KeyedRateLimiter(settings.redemptionFailures), clock: ground.clock),
            PrintSubscriberController(access: access, lists: print.lists, claims: print.claims, entitlements: entitlements,
                                      listMaxBytes: settings.subscriberListMaxBytes, clock: ground.clock),
            InstitutionController(access: access, institutions: operations.institutions, entitlements: entitlements,
                                  requesters: requesters, tokens: tokens, catalog: catalog, identifiers: ground.identifiers,
                                  clock: ground.clock),
            HistoryController(access: access, history: support.history),
            AccountDeletionController(access: access, deletions: readers.deletions),
            TimelineController(access: access, entitlements: entitlements, catalog: catalog),
            MetricsController(access: access, subscribers: reports.subscribers, catalog: catalog),
            ConsoleController(),
            AppStoreController(access: access, appStore: intake.appStore, refresh: intake.refresh(storeWait: limits.refreshStoreWait),
                               backfill: intake.backfill, entitlements: entitlements,
                               refreshLimit: KeyedRateLimiter(.init(perMinute: limits.refreshesPerMinute,
                                                                    burst: limits.refreshBurst)),
                               limits: limits, clock: ground.clock),
            DeviceController(access: access, devices: readers.devices, clock: ground.clock),
            SignInNonceController(nonces: readers.nonces, clock: ground.clock),
            SignInWithAppleController(events: readers.appleServerEvents, actions: readers.appleEvents, clock: ground.clock),
            StripeController(access: access, stripe: intake.stripe, limits: limits, clock: ground.clock),
            WebhookController(access: access, deadLetters: operations.deadLetters),
            CirculationController(access: access, circulation: operations.circulation),
            GooglePlayController(access: access, googlePlay: intake.googlePlay, entitlements: entitlements),
            SessionController(access: access, readers: readers, requesters: requesters),
        ]
    }

    /// Every route of http-api.md on one frozen router, answering the server's own errors in the
    /// spec's shape.
    package func makeRouter() -> Router {
        let builder = RouterBuilder()
        let router = APIRouterBuilder(builder, authenticator: authenticator)
        for controller in controllers { controller.register(router) }
        return builder.freeze(errors: HTTPServerError.apiShape)
    }
}

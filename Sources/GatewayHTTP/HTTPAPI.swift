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

    package init(core: CoreServices, settings: APISettings) throws(StartError) {
        self.settings = settings
        authenticator = core.authenticator
        let signer: TokenSigner
        do {
            signer = try TokenSigner(keys: settings.tokenKeys, issuer: settings.tokenIssuer,
                                     lifetimeSeconds: Int64(settings.tokenTTLSeconds))
        } catch {
            throw StartError(description: "\(error)")
        }
        let tokenMemo = TokenMemo(budgetBytes: core.budget.tokenBytes)
        let compressed = CompressedBodies(budgetBytes: core.budget.compressedBytes)
        self.tokenMemo = tokenMemo
        self.compressed = compressed
        let readers = core.readers, intake = core.intake, support = core.support, operations = core.operations
        let catalog = core.catalogServices.cache
        let print = try core.print(verificationKey: settings.verificationKey)
        let access = Access(authenticator: core.authenticator, readers: readers.accounts, catalog: catalog)
        let entitlements = readers.entitlements
        let requesters = Requesters(addresses: ClientAddressResolver(trustedProxies: settings.trustedProxies))
        let lists = ListResponder(compressed: compressed)
        let limits = settings.limits
        accounts = AccountController(
            access: access, readers: readers.accounts, catalog: catalog, entitlements: entitlements, requesters: requesters,
            appStore: intake.appStore, facts: intake.facts, postedStatuses: intake.postedStatuses, lists: lists,
            accountCreationLimit: KeyedRateLimiter(settings.accountCreation), limits: limits, clock: core.clock)
        tokens = TokenController(access: access, entitlements: entitlements, requesters: requesters, signer: signer,
                                 settings: settings, random: core.random, counters: core.counters, clock: core.clock)
        // Registered in this order: the router does not depend on it, `/metrics` labels do not either.
        controllers = [
            OperationsController(storeHealth: operations.storeHealth, metrics: operations.metrics),
            CatalogController(access: access, catalog: catalog, changes: core.catalogServices.changes, lists: lists,
                              clock: core.clock),
            KeyController(access: access, keys: core.catalogServices.keys),
            accounts,
            tokens,
            EdgeController(tokenKeys: settings.tokenKeys, tokenMemo: tokenMemo, clock: core.clock, counters: core.counters),
            LookupController(access: access, lookups: support.lookups),
            ExplanationController(access: access, explanations: support.explanations, entitlements: entitlements,
                                  requesters: requesters, clock: core.clock),
            GrantController(access: access, grants: readers.grants, catalog: catalog, identifiers: core.identifiers,
                            clock: core.clock),
            CodeController(access: access, codes: readers.codes, entitlements: entitlements,
                           redemptionFailures: KeyedRateLimiter(settings.redemptionFailures), clock: core.clock),
            PrintSubscriberController(access: access, lists: print.lists, claims: print.claims, entitlements: entitlements,
                                      listMaxBytes: settings.subscriberListMaxBytes, clock: core.clock),
            InstitutionController(access: access, institutions: operations.institutions, entitlements: entitlements,
                                  requesters: requesters, tokens: tokens, catalog: catalog, identifiers: core.identifiers,
                                  clock: core.clock),
            HistoryController(access: access, history: support.history),
            TimelineController(access: access, entitlements: entitlements, catalog: catalog),
            ConsoleController(),
            AppStoreController(access: access, appStore: intake.appStore, refresh: intake.refresh(storeWait: limits.refreshStoreWait),
                               backfill: intake.backfill, entitlements: entitlements,
                               refreshLimit: KeyedRateLimiter(.init(perMinute: limits.refreshesPerMinute,
                                                                    burst: limits.refreshBurst)),
                               limits: limits, clock: core.clock),
            DeviceController(access: access, devices: readers.devices, clock: core.clock),
            StripeController(access: access, stripe: intake.stripe, limits: limits, clock: core.clock),
            WebhookController(access: access, deadLetters: operations.deadLetters),
            GooglePlayController(access: access, googlePlay: intake.googlePlay, entitlements: entitlements),
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

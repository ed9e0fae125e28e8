import DownloadTokens
import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Metrics
import Wire

/// The API of http-api.md over the core's services: one controller per area, each given only
/// what its routes need, composed onto one frozen router. Built once at start and shared by all
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
        let access = Access(authenticator: core.authenticator, store: core.store, catalog: core.catalog)
        let answers = EntitlementAnswers(accounts: core.accounts, catalog: core.catalog, engine: core.entitlements,
                                         clock: core.clock)
        let lists = ListResponder(compressed: compressed)
        let hasher: VerificationHasher
        do { hasher = try VerificationHasher(key: settings.verificationKey) } catch {
            throw StartError(description: "the verification key: \(error)")
        }
        let limits = settings.limits
        let coverage = InstitutionCoverage(institutions: Institutions(store: core.store, clock: core.clock),
                                           addresses: ClientAddressResolver(trustedProxies: settings.trustedProxies),
                                           accounts: InstitutionAccounts(store: core.store, clock: core.clock))
        let changes = CatalogChanges(catalog: core.catalog, announcements: core.announcements)
        accounts = AccountController(
            access: access, store: core.store, accounts: core.accounts, catalog: core.catalog, answers: answers,
            coverage: coverage, appStore: core.appStore, postedStatuses: core.postedStatuses, identifiers: core.identifiers, lists: lists,
            accountCreationLimit: KeyedRateLimiter(settings.accountCreation), limits: limits, clock: core.clock)
        tokens = TokenController(access: access, accounts: core.accounts, catalog: core.catalog, answers: answers,
                                 coverage: coverage, signer: signer, settings: settings, random: core.random, counters: core.counters,
                                 clock: core.clock)
        // Registered in this order: the router does not depend on it, `/metrics` labels do not either.
        controllers = [
            OperationsController(storeHealth: core.storeHealth, metrics: core.metrics),
            CatalogController(access: access, store: core.store, catalog: core.catalog, changes: changes, lists: lists,
                              clock: core.clock),
            KeyController(access: access, store: core.store, catalog: core.catalog, identifiers: core.identifiers,
                          clock: core.clock),
            accounts,
            tokens,
            EdgeController(tokenKeys: settings.tokenKeys, tokenMemo: tokenMemo, clock: core.clock, counters: core.counters),
            LookupController(access: access, store: core.store),
            ExplanationController(access: access, explanations: Explanations(
                store: core.store, accounts: core.accounts, catalog: core.catalog, entitlements: core.entitlements,
                clock: core.clock), coverage: coverage, clock: core.clock),
            GrantController(access: access, store: core.store, accounts: core.accounts, catalog: core.catalog,
                            identifiers: core.identifiers, events: core.events, clock: core.clock),
            CodeController(access: access, store: core.store, codes: AccessCodes(
                store: core.store, catalog: core.catalog, accounts: core.accounts, clock: core.clock,
                identifiers: core.identifiers, events: core.events), answers: answers,
                           redemptionFailures: KeyedRateLimiter(settings.redemptionFailures), clock: core.clock),
            PrintSubscriberController(
                access: access,
                lists: SubscriberLists(store: core.store, accounts: core.accounts, hasher: hasher,
                                       identifiers: core.identifiers, events: core.events, clock: core.clock),
                claims: PrintClaims(store: core.store, accounts: core.accounts, hasher: hasher, identifiers: core.identifiers,
                                    ownership: core.ownership, events: core.events),
                store: core.store, answers: answers, listMaxBytes: settings.subscriberListMaxBytes, clock: core.clock),
            InstitutionController(access: access, coverage: coverage, answers: answers,
                                  tokens: tokens, catalog: core.catalog, identifiers: core.identifiers, clock: core.clock),
            HistoryController(access: access, store: core.store),
            TimelineController(access: access, answers: answers),
            ConsoleController(),
            AppStoreController(access: access, store: core.store, accounts: core.accounts, appStore: core.appStore,
                               stripe: core.stripe, backfill: core.backfill, answers: answers,
                               refreshLimit: KeyedRateLimiter(.init(perMinute: limits.refreshesPerMinute,
                                                                    burst: limits.refreshBurst)),
                               limits: limits, clock: core.clock, googlePlay: core.googlePlay,
                               stripeWork: core.stripeWork, googlePlayWork: core.googlePlayWork),
            DeviceController(access: access, store: core.store, accounts: core.accounts, clock: core.clock),
            StripeController(access: access, stripe: core.stripe, limits: limits, clock: core.clock),
            WebhookController(access: access, store: core.store, clock: core.clock),
            GooglePlayController(access: access, googlePlay: core.googlePlay, answers: answers),
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

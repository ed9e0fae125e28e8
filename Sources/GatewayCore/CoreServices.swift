import AppStoreKit
import Entitle
import GatewayCrypto
import GatewayStore
import IssueCatalog
import Metrics
import StripeKit
import Wire

/// The use cases' shared services, built once at start and handed out piecewise: each controller
/// and background service takes only the ones it needs.
package final class CoreServices: Sendable {
    package let store: any GatewayStore
    package let clock: any GatewayClock
    package let random: any RandomBytesSource
    package let metrics: Metrics
    package let counters: GatewayCounters
    package let pushCounters: PushCounters
    /// Whether caches may be served from: always on a store one process owns, while the change
    /// feed is followed on a shared one.
    package let coherence = CacheCoherence()
    package let budget: CacheBudget
    package let catalog: CatalogCache
    package let accounts: AccountFactsCache
    package let authenticator: Authenticator
    package let entitlements: EntitlementEvaluator
    /// Which events the store keeps for pushes and webhooks; `.off` unless configured.
    package let events: EventPolicy
    /// E4: who keeps a subscription, or a print subscriber (E29), that a second account claims.
    package let ownership: OwnershipPolicy
    /// Whether the store answers (`/healthz`).
    package let storeHealth: StoreHealthMonitor
    package let appStore: AppStoreIngestion
    /// Fetches a posted signed transaction's statuses from Apple.
    package let postedStatuses: PostedTransactionStatuses
    /// Google Play; nil unless `ISSUE_GATEWAY_GOOGLE_PACKAGES` and a service account are configured.
    package let googlePlay: GooglePlayIngestion?
    /// E28's retries; nil without Google Play.
    package let acknowledger: GooglePlayAcknowledger?
    /// Pub/Sub pull; nil unless a subscription to pull is configured.
    package let puller: GooglePlayPuller?
    /// E24's pass over voided purchases; nil without Google Play.
    package let voidedPass: GooglePlayVoidedPass?
    /// Replays Apple's notification history; nil without Server API credentials.
    package let backfill: NotificationBackfill?
    package let identifiers: Identifiers
    /// Stripe's webhook events (and its API, when a key is configured).
    package let stripe: StripeIngestion
    /// Where the poller's and requested backfills' calls to Apple run (the App Store pool).
    package let appStoreWork: WorkPool
    /// Where calls to Stripe and to Google made on behalf of other work run (a reader's refresh
    /// runs on the App Store pool and asks them on theirs).
    package let stripeWork: WorkPool
    package let googlePlayWork: WorkPool

    package init(store: any GatewayStore, appStore services: AppStoreServices, metrics: Metrics, clock: any GatewayClock,
                 random: any RandomBytesSource, adminKey: String, cacheMemoryBytes: Int, policy: EntitlementPolicy,
                 ownership: OwnershipPolicy, events: EventPolicy, appStoreWork: WorkPool,
                 stripe stripeSettings: StripeSettings = StripeSettings(webhookSecrets: []), stripeAPI: (any StripeAPI)? = nil,
                 googlePlay googlePlayServices: GooglePlayServices? = nil,
                 stripeWork: WorkPool = .inline, googlePlayWork: WorkPool = .inline) throws(StartError) {
        self.store = store
        self.clock = clock
        self.random = random
        self.metrics = metrics
        self.events = events
        self.ownership = ownership
        self.appStoreWork = appStoreWork
        self.stripeWork = stripeWork
        self.googlePlayWork = googlePlayWork
        budget = CacheBudget(totalBytes: cacheMemoryBytes)
        counters = GatewayCounters(metrics)
        pushCounters = PushCounters(metrics)
        storeHealth = StoreHealthMonitor(store: store)
        entitlements = EntitlementEvaluator(policy: policy)
        identifiers = Identifiers(random: random)
        do {
            authenticator = try Authenticator(store: store, adminKey: adminKey, cacheBytes: budget.principalBytes,
                                              coherence: coherence, secretsHashed: counters.secretsHashed)
            catalog = try CatalogCache(store: store)
        } catch {
            throw StartError(description: "\(error)")
        }
        accounts = AccountFactsCache(store: store, budget: budget, coherence: coherence)
        let ingestion = AppStoreIngestion(services: services, store: store, accounts: accounts, ownership: ownership,
                                          events: events, clock: clock, counters: counters)
        appStore = ingestion
        do {
            stripe = try StripeIngestion(settings: stripeSettings, api: stripeAPI, storing: ingestion,
                                         counters: StripeCounters(metrics))
        } catch {
            throw StartError(description: "the Stripe webhook secrets cannot be used: \(error)")
        }
        postedStatuses = PostedTransactionStatuses(ingestion: ingestion, work: appStoreWork)
        let catalog = self.catalog, clock = self.clock
        googlePlay = googlePlayServices.map {
            GooglePlayIngestion(services: $0, facts: ingestion, catalog: catalog, clock: clock, metrics: metrics)
        }
        let ingestionForPull = googlePlay
        puller = googlePlayServices?.pull.flatMap { pull in ingestionForPull.map { GooglePlayPuller(client: pull, ingestion: $0) } }
        voidedPass = googlePlay.map { GooglePlayVoidedPass(store: store, ingestion: $0, clock: clock) }
        acknowledger = googlePlayServices.map {
            GooglePlayAcknowledger(store: store, client: $0.client, clock: clock, metrics: metrics)
        }
        // E3: sandbox history is replayed only where sandbox facts count.
        backfill = services.serverAPI.map {
            NotificationBackfill(settings: .standard, ingestion: ingestion, serverAPI: $0,
                                 environments: policy.acceptSandbox ? [.production, .sandbox] : [.production],
                                 work: appStoreWork)
        }
    }

    /// Issues a catalog change made published, announced at once.
    package var announcements: PublicationAnnouncements {
        PublicationAnnouncements(store: store, clock: clock, events: events, counters: pushCounters)
    }
}

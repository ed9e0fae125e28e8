import AppStoreKit
import Entitle
import GatewayCrypto
import GatewayStore
import IssueCatalog
import Metrics
import OpenIDConnect
import StripeKit
import Wire

/// The use cases built once at start: the shared ground (store, clock, caches, counters) and the
/// services grouped by what they serve (readers, catalog, the stores' intake, support,
/// operations, deliveries) and what every request stands on. Each builder takes the groups it needs and each controller only their members.
package final class CoreServices: Sendable {
    package let store: any GatewayStore
    package let clock: any GatewayClock
    package let random: any RandomBytesSource
    package let counters: GatewayCounters
    package let pushCounters: PushCounters
    /// Whether caches may be served from: always on a store one process owns, while the change
    /// feed is followed on a shared one.
    package let coherence = CacheCoherence()
    package let budget: CacheBudget
    package let catalog: CatalogCache
    package let accounts: AccountFactsCache
    package let authenticator: Authenticator
    /// E34's hourly session moves, noted by the authenticator and stored in batches.
    package let sessionTouches: SessionTouches
    package let entitlements: EntitlementEvaluator
    /// Which events the store keeps for pushes and webhooks; `.off` unless configured.
    package let events: EventPolicy
    /// E4: who keeps a subscription, or a print subscriber (E29), that a second account claims.
    package let ownership: OwnershipPolicy
    package let identifiers: Identifiers
    /// Where the poller's and requested backfills' calls to Apple run (the App Store pool).
    package let appStoreWork: WorkPool
    package let stripeWork: WorkPool

    package let readers: ReaderServices
    package let catalogServices: CatalogServices
    package let intake: IntakeServices
    package let support: SupportServices
    package let operations: OperationsServices
    package let delivery: DeliveryServices
    package let reports: ReportServices
    package let ground: RequestGround

    /// `storeWork`: where writes queued off a request run (E30's records of grants given).
    package init(store: any GatewayStore, appStore services: AppStoreServices, metrics: Metrics, clock: any GatewayClock,
                 random: any RandomBytesSource, adminKey: String, cacheMemoryBytes: Int, policy: EntitlementPolicy,
                 ownership: OwnershipPolicy, events: EventPolicy, appStoreWork: WorkPool,
                 stripe stripeSettings: StripeSettings = StripeSettings(webhookSecrets: []), stripeAPI: (any StripeAPI)? = nil,
                 googlePlay googlePlayServices: GooglePlayServices? = nil,
                 stripeWork: WorkPool = .inline, googlePlayWork: WorkPool = .inline, storeWork: WorkPool = .inline,
                 identityProviders: OpenIDProviders = OpenIDProviders([]), sessions sessionPolicy: SessionPolicy = .standard,
                 identityVerifier: (any IdentityVerifying)? = nil) throws(StartError) {
        self.store = store
        self.clock = clock
        self.random = random
        self.events = events
        self.ownership = ownership
        self.appStoreWork = appStoreWork
        self.stripeWork = stripeWork
        budget = CacheBudget(totalBytes: cacheMemoryBytes)
        counters = GatewayCounters(metrics)
        pushCounters = PushCounters(metrics)
        entitlements = EntitlementEvaluator(policy: policy, evaluations: counters.evaluations)
        identifiers = Identifiers(random: random)
        let catalog: CatalogCache
        sessionTouches = SessionTouches(store: store)
        do {
            authenticator = try Authenticator(store: store, adminKey: adminKey, cacheBytes: budget.principalBytes,
                                              coherence: coherence, secretsHashed: counters.secretsHashed, clock: clock,
                                              sessions: sessionPolicy, touches: sessionTouches)
            catalog = try CatalogCache(store: store)
        } catch {
            throw StartError(description: "\(error)")
        }
        self.catalog = catalog
        let accounts = AccountFactsCache(store: store, budget: budget, coherence: coherence, reads: counters.factsReads)
        let answers = OwnAnswers(accounts: accounts, engine: entitlements, clock: clock)
        self.accounts = accounts
        intake = try Self.intake(store: store, services: services, metrics: metrics, clock: clock, counters: counters,
                                 accounts: accounts, catalog: catalog, ownership: ownership, events: events, policy: policy,
                                 stripe: stripeSettings, stripeAPI: stripeAPI, googlePlay: googlePlayServices,
                                 appStoreWork: appStoreWork, stripeWork: stripeWork, googlePlayWork: googlePlayWork)
        let institutions = Institutions(store: store, clock: clock)
        let given = InstitutionAccounts(store: store, clock: clock, work: storeWork)
        let explanations = Explanations(store: store, accounts: accounts, catalog: catalog, entitlements: entitlements,
                                        clock: clock, given: given)
        let verifier = identityVerifier ?? ProviderIdentityVerifier(providers: identityProviders, store: store)
        let deletions = AccountDeletions(store: store, accounts: accounts, authenticator: authenticator, catalog: catalog,
                                         engine: entitlements, events: events, clock: clock, googlePlayPackages: googlePlayServices?.packages ?? [])
        readers = ReaderServices(
            accounts: ReaderAccounts(store: store, identifiers: identifiers, clock: clock),
            entitlements: EntitlementsNow(accounts: accounts, catalog: catalog, engine: entitlements, institutions: institutions,
                                          given: given, clock: clock),
            devices: Devices(store: store),
            grants: Grants(store: store, accounts: accounts, events: events, clock: clock),
            codes: AccessCodes(store: store, catalog: catalog, accounts: accounts, clock: clock, identifiers: identifiers,
                               events: events),
            deletions: deletions,
            identityVerifier: verifier,
            nonces: SignInNonces(store: store, random: random, isConfigured: verifier.isConfigured),
            appleServerEvents: AppleServerEvents(providers: identityProviders),
            sessionPolicy: sessionPolicy,
            sessions: ReaderSessions(store: store, clock: clock, authenticator: authenticator, policy: sessionPolicy,
                                     touches: sessionTouches),
            signIn: SignIn(store: store, identifiers: identifiers, clock: clock, authenticator: authenticator, accounts: accounts,
                           policy: sessionPolicy, verifier: verifier),
            linkCodes: LinkCodes(store: store, identifiers: identifiers, clock: clock),
            identities: ReaderIdentities(store: store, clock: clock, policy: sessionPolicy, verifier: verifier),
            // E35: an account Sign in with Apple deletes goes through the deletion use case.
            appleEvents: AppleIdentityEvents(store: store, clock: clock, authenticator: authenticator, policy: sessionPolicy,
                                             deleteAccount: { id throws(GatewayError) in _ = try deletions.delete(id) }))
        catalogServices = CatalogServices(
            cache: catalog,
            changes: CatalogChanges(store: store, catalog: catalog,
                                    announcements: PublicationAnnouncements(store: store, clock: clock, events: events,
                                                                            counters: pushCounters)),
            keys: APIKeys(store: store, catalog: catalog, authenticator: authenticator, identifiers: identifiers, clock: clock))
        support = SupportServices(lookups: OwnerLookups(store: store), history: AccountHistory(store: store, given: given),
                                  explanations: explanations)
        ground = RequestGround(authenticator: authenticator, budget: budget, clock: clock, random: random,
                               identifiers: identifiers, counters: counters)
        delivery = DeliveryServices(store: store, clock: clock, catalog: catalog, answers: answers,
                                    counters: pushCounters, events: events)
        // E36: the circulation rows of accounts whose facts changed are derived under this policy.
        store.factsUpkeep?.install(CirculationUpkeep(policy: policy))
        reports = ReportServices(subscribers: SubscriberMetrics(store: store, catalog: catalog, policy: policy, clock: clock))
        operations = OperationsServices(storeHealth: StoreHealthMonitor(store: store), metrics: metrics,
                                        institutions: institutions, deadLetters: DeadLetters(store: store, clock: clock),
                                        circulation: Circulation(store: store, clock: clock),
                                        downloads: DownloadRecorder(store: store), reportRows: ReportRowsDrain(store: store))
    }

    /// Print subscribers' lists and claims, over the keyed hash of verification values.
    package func print(verificationKey: [UInt8]) throws(StartError) -> PrintServices {
        let hasher: VerificationHasher
        do { hasher = try VerificationHasher(key: verificationKey) } catch {
            throw StartError(description: "the verification key: \(error)")
        }
        return PrintServices(
            lists: SubscriberLists(store: store, accounts: accounts, hasher: hasher, identifiers: identifiers, events: events,
                                   clock: clock),
            claims: PrintClaims(store: store, accounts: accounts, hasher: hasher, identifiers: identifiers,
                                ownership: ownership, events: events))
    }

    private static func intake(store: any GatewayStore, services: AppStoreServices, metrics: Metrics, clock: any GatewayClock,
                               counters: GatewayCounters, accounts: AccountFactsCache, catalog: CatalogCache,
                               ownership: OwnershipPolicy, events: EventPolicy, policy: EntitlementPolicy,
                               stripe stripeSettings: StripeSettings, stripeAPI: (any StripeAPI)?,
                               googlePlay googlePlayServices: GooglePlayServices?, appStoreWork: WorkPool, stripeWork: WorkPool,
                               googlePlayWork: WorkPool) throws(StartError) -> IntakeServices {
        let facts = FactIntake(store: store, accounts: accounts, ownership: ownership, events: events, clock: clock)
        let ingestion = AppStoreIngestion(services: services, intake: facts, counters: counters)
        let stripe: StripeIngestion
        do {
            stripe = try StripeIngestion(settings: stripeSettings, api: stripeAPI, intake: facts,
                                         counters: StripeCounters(metrics))
        } catch {
            throw StartError(description: "the Stripe webhook secrets cannot be used: \(error)")
        }
        let googlePlay = googlePlayServices.map {
            GooglePlayIngestion(services: $0, facts: facts, catalog: catalog, clock: clock, metrics: metrics)
        }
        return IntakeServices(
            facts: facts,
            appStore: ingestion,
            postedStatuses: PostedTransactionStatuses(ingestion: ingestion, work: appStoreWork),
            // E3: sandbox history is replayed only where sandbox facts count.
            backfill: services.serverAPI.map {
                NotificationBackfill(settings: .standard, ingestion: ingestion, serverAPI: $0,
                                     environments: policy.acceptSandbox ? [.production, .sandbox] : [.production],
                                     work: appStoreWork)
            },
            stripe: stripe,
            googlePlay: googlePlay,
            acknowledger: googlePlayServices.map {
                GooglePlayAcknowledger(store: store, client: $0.client, clock: clock, metrics: metrics)
            },
            puller: googlePlayServices?.pull.flatMap { pull in googlePlay.map { GooglePlayPuller(client: pull, ingestion: $0) } },
            voidedPass: googlePlay.map { GooglePlayVoidedPass(store: store, ingestion: $0, clock: clock) },
            stripeWork: stripeWork, googlePlayWork: googlePlayWork)
    }
}

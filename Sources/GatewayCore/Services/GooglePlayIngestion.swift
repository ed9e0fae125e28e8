import Entitle
import Foundation
import GatewayStore
import GooglePlayKit
import IssueCatalog
import Metrics
import Wire

/// Google Play purchases into stored facts (E2, E23–E25, E28): a reader's post and Google's
/// notifications only name a token; the facts are what Google answers the gateway's own call.
/// Blocking (it calls Google): the Google Play pool only. Facts are stored through the one fact
/// intake (`FactIntake`), so E1 and E4 are written once.
package final class GooglePlayIngestion: Sendable {
    package let services: GooglePlayServices
    private let facts: FactIntake
    private let catalog: CatalogCache
    private let clock: any GatewayClock
    /// E25: order periods built from subscription snapshots (the Orders API did not answer them),
    /// counted at every fetch that builds them.
    private let periodsFromSnapshots: Counter

    package init(services: GooglePlayServices, facts: FactIntake, catalog: CatalogCache, clock: any GatewayClock,
                 metrics: Metrics) {
        self.services = services; self.facts = facts; self.catalog = catalog; self.clock = clock
        periodsFromSnapshots = metrics.counter("issue_gateway_googleplay_snapshot_periods_total",
                                               help: "Google Play order periods built from subscription snapshots because the Orders API did not answer them (E25)")
    }

    /// The gateway's clock (a backfill's window ends now at the latest).
    package var now: Instant { clock.now() }

    /// Tokens of a chain followed at most: upgrades and re-signups link one token to the next; a
    /// longer chain than this is refused rather than followed without end.
    static let maximumChainLength = 64

    /// E25: snapshots of one token read to build its periods, the newest kept. One is kept per change
    /// Google reports (a billing period's few states, a grace's daily expiries), so this covers years
    /// of a subscription; it bounds the memory a token's history can take.
    static let maximumSnapshotsRead = 4096

    // MARK: A reader's purchase

    /// `POST /v1/accounts/{id}/googleplay/purchases`: asks Google about the token, stores what it
    /// answers for the account (E4 by `obfuscatedExternalAccountId`), then acknowledges once (E28).
    /// `ownedByOtherAccount` when E4 under `keep` leaves the purchase with another account.
    package func purchase(accountId: String, packageName: String, productId: String, token: String) throws(GatewayError) {
        try requirePackage(packageName)
        guard let product = catalog.state.snapshot.product(.googlePlay, storeProductId: productId) else {
            throw .invalid("productId \(productId) is not a Google Play product of the catalog")
        }
        let subscription = product.kind != .issue
        let found = try fetch(packageName: packageName, productId: productId, token: token, subscription: subscription,
                              source: .googlePlayApi)
        var build = found.build
        if let pending = found.pending {
            build = { tx throws(StoreError) in try pending.bind(try found.build(tx), poster: accountId, tx) }
        }
        try facts.save(building: build, for: accountId)
        count(found)
        acknowledge(found, packageName: packageName)
    }

    // MARK: Notifications

    /// `POST /v1/googleplay/notifications`: a Pub/Sub push whose OIDC token verifies (`unauthorized`
    /// otherwise), for a configured package (`invalid`), taken once per `messageId`: the facts Google
    /// answers for its token are stored, with the message id, before the 2xx.
    package func takePush(_ body: [UInt8], authorization: String?) throws(GatewayError) -> Bool {
        guard let verifier = services.push else {
            throw .unauthorized("Google Play pushes are not accepted: ISSUE_GATEWAY_GOOGLE_PUSH_AUDIENCE and _EMAIL are not set")
        }
        do { try verifier.verify(authorization: authorization, now: clock.now()) } catch {
            if case .keysUnavailable = error { throw .storeUnavailable(error.description) }
            throw .unauthorized("the push token was refused: \(error.description)")
        }
        let envelope: PushEnvelope
        do { envelope = try PushEnvelope.parse(body) } catch { throw .invalid("malformed push: \(error.description)") }
        return try take(envelope)
    }

    /// One notification (pushed or pulled): false when its message id was taken before.
    package func take(_ envelope: PushEnvelope) throws(GatewayError) -> Bool {
        let notification = envelope.notification
        try requirePackage(notification.packageName)
        var found = FetchedFacts()
        do {
            switch notification.kind {
            case .test:
                break
            case .subscription(let type, let token):
                // E25: a revoke cuts at the notification's event time.
                found = try fetch(packageName: notification.packageName, productId: nil, token: token, subscription: true,
                                  source: .rtdn,
                                  revokedAt: type == DeveloperNotification.subscriptionRevoked ? notification.eventTime : nil)
            case .oneTimeProduct(_, let token, let sku):
                found = try fetch(packageName: notification.packageName, productId: sku, token: token, subscription: false,
                                  source: .rtdn)
            case .voided(let token, let orderId, let productType, _):
                // E24: the voided order is void from the notification's event time. A voided
                // one-time product names no sku: its order says which product it was.
                var sku: String?
                if productType == 2, let orderId {
                    sku = try oneTimeProduct(packageName: notification.packageName, orderId: orderId)
                }
                found = try fetch(packageName: notification.packageName, productId: sku, token: token,
                                  subscription: productType != 2, source: .rtdn,
                                  voided: orderId.map { [$0: notification.eventTime] } ?? [:])
            }
        } catch let error where error.isPurchaseGone {
            // Google does not know the token (or no longer): nothing to store, and nothing a
            // redelivery would change, so the message is taken.
        }
        let result = try facts.saveForOwners(building: found.build, notificationUUID: Self.messageKey(envelope.messageId),
                                             source: .rtdn)
        if !result.duplicateNotification { count(found); acknowledge(found, packageName: notification.packageName) }
        return !result.duplicateNotification
    }

    /// What a refresh asks Google about among an account's `subscriptions`.
    package func refreshable(_ subscriptions: [SubscriptionKey]) -> [SubscriptionKey] {
        subscriptions.filter { $0.store == .googlePlay }
    }

    /// `POST /v1/accounts/{id}/refresh` (http-api.md: every store with credentials and facts for
    /// the account): each of the account's Google Play subscriptions (`refreshable`), asked again
    /// from its newest token (an order `REFUNDED` is a refund found).
    package func refresh(_ keys: [SubscriptionKey]) throws(GatewayError) {
        let store = facts.store
        var found: [FetchedFacts] = []
        for key in keys {
            guard let kept = try stored({ () throws(StoreError) in try store.latestReceipt(for: key) }),
                  let (packageName, token) = Self.parseReceipt(kept.receiptData), services.packages.contains(packageName) else { continue }
            do {
                found.append(try fetch(packageName: packageName, productId: nil, token: token, subscription: true,
                                       source: .googlePlayApi))
            } catch let error where error.isPurchaseGone {
                // A purchase Google no longer keeps: what was stored stands, the others are asked.
                continue
            }
        }
        // Nothing Google still keeps: no write unit of work to open.
        guard !found.isEmpty else { return }
        try facts.saveForOwners(building: { tx throws(StoreError) in
            var all = VerifiedFacts()
            for fetched in found { all.append(try fetched.build(tx)) }
            return all
        }, source: .googlePlayApi)
        found.forEach(count)
    }

    /// E24: every purchase Google voided in `[start, end)` (googleplay.md: at most 30 days back),
    /// asked again and stored with its order void, for refunds whose notification never came.
    /// Returns the purchases stored.
    @discardableResult
    package func replayVoided(start: Instant, end: Instant) throws(GatewayError) -> Int {
        let client = services.client
        var replayed = 0
        for packageName in services.packages.sorted() {
            let voided = try answered { () throws(GooglePlayError) in
                try client.voidedPurchases(packageName: packageName, start: start, end: end)
            }
            var byToken: [String: [String: Instant]] = [:]
            for purchase in voided { byToken[purchase.purchaseToken, default: [:]][purchase.orderId ?? ""] = purchase.voidedTime }
            for (token, orders) in byToken.sorted(by: { $0.key < $1.key }) {
                let found: FetchedFacts
                do {
                    found = try fetch(packageName: packageName, productId: nil, token: token, subscription: true,
                                      source: .googlePlayApi, voided: orders)
                } catch where error.isPurchaseGone {
                    // Not a subscription Google keeps: a one-time product, named by its order.
                    // Only "unknown" skips it: Google unreachable fails the replay, so nothing is lost unsaid.
                    guard let orderId = orders.keys.first(where: { !$0.isEmpty }) else { continue }
                    do {
                        let sku = try oneTimeProduct(packageName: packageName, orderId: orderId)
                        found = try fetch(packageName: packageName, productId: sku, token: token, subscription: false,
                                          source: .googlePlayApi, voided: orders)
                    } catch let error where error.isPurchaseGone {
                        continue
                    }
                }
                try facts.saveForOwners(building: found.build, source: .googlePlayApi)
                count(found)
                replayed += 1
            }
        }
        return replayed
    }

    /// The kept "receipt" of a Play subscription: its package and newest token.
    static func receipt(_ packageName: String, _ token: String) -> String { "googleplay:\(packageName):\(token)" }

    static func parseReceipt(_ text: String) -> (packageName: String, token: String)? {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "googleplay" else { return nil }
        return (String(parts[1]), String(parts[2]))
    }

    /// Message ids share the processed-notification keys with Apple's UUIDs: prefixed apart.
    static func messageKey(_ messageId: String) -> String { "googleplay:" + messageId }

    // MARK: Asking Google

    struct FetchedFacts {
        /// Google's answer as facts given what the gateway kept: run in the write unit of work
        /// that stores them (E25: a concurrent fetch's snapshot is never missed), again each time
        /// it runs.
        var build: (any ReadTransaction) throws(StoreError) -> VerifiedFacts = { _ throws(StoreError) in VerifiedFacts() }
        /// E25: the periods the last run of `build` built from snapshots.
        let periodsBuilt = BuiltPeriods()
        /// A verified purchase Google has not seen acknowledged (E28): its product and token.
        var unacknowledged: (productId: String, token: String, subscription: Bool)?
        /// A purchase still pending: a reader's post binds its token (googleplay.md).
        var pending: PlayPendingBinding?
    }

    /// E25's metric, once the facts are stored.
    private func count(_ found: FetchedFacts) { periodsFromSnapshots.increment(by: found.periodsBuilt.count) }

    /// E28, after the facts are stored: one try now; a failure never fails the answer
    /// (googleplay.md's decision) and leaves the purchase owed, retried by `GooglePlayAcknowledger`.
    private func acknowledge(_ found: FetchedFacts, packageName: String) {
        guard let owed = found.unacknowledged else { return }
        do {
            try services.client.acknowledge(packageName: packageName, subscription: owed.subscription, productId: owed.productId,
                                            token: owed.token)
        } catch .notFound, .gone {
            return
        } catch {
            let now = clock.now()
            let pending = PendingAcknowledgement(packageName: packageName, purchaseToken: owed.token, productId: owed.productId,
                                                 isSubscription: owed.subscription, firstSeen: now, attempts: 1,
                                                 nextAttempt: now.adding(seconds: GooglePlayAcknowledger.firstRetrySeconds))
            do { try facts.store.insertPendingAcknowledgement(pending) } catch {
                StoreLog.standardError.failure("the acknowledgement owed for a Google Play purchase could not be recorded: \(error)")
            }
        }
    }

    /// What Google answers for `token`: a subscription's whole chain (E25), or a one-time product
    /// (E14).
    private func fetch(packageName: String, productId: String?, token: String, subscription: Bool, source: TransactionSource,
                       voided: [String: Instant] = [:], revokedAt: Instant? = nil) throws(GatewayError) -> FetchedFacts {
        let now = clock.now()
        let client = services.client
        var found = FetchedFacts()
        if subscription {
            var chain: [FetchedToken] = []
            var next: String? = token
            var seen: Set<String> = []
            while let current = next {
                // A chain longer than the bound, or one that links back to a token already followed,
                // is refused: stored cut short, its facts would land under a second root.
                guard chain.count < Self.maximumChainLength, seen.insert(current).inserted else {
                    throw .invalid("the purchase's linkedPurchaseToken chain is cyclic or longer than \(Self.maximumChainLength) tokens")
                }
                let purchase: PlaySubscriptionPurchase
                do {
                    purchase = try answered { () throws(GooglePlayError) in try client.subscription(packageName: packageName, token: current) }
                } catch let error where !chain.isEmpty && error.isPurchaseGone {
                    // An old token Google no longer keeps: the chain's root is the oldest one it answers for.
                    break
                }
                if chain.isEmpty, let productId, purchase.line?.productId != productId {
                    throw .invalid("the purchase is of \(purchase.line?.productId ?? "no product"), not \(productId)")
                }
                chain.append(FetchedToken(token: current, purchase: purchase,
                                          snapshot: PlaySnapshot(purchase, observedAt: now, revokedAt: chain.isEmpty ? revokedAt : nil),
                                          answer: try answeredOrders(packageName: packageName, purchase: purchase)))
                next = purchase.linkedPurchaseToken
            }
            let periodsBuilt = found.periodsBuilt
            found.build = { tx throws(StoreError) in
                let built = try Self.subscriptionFacts(chain, packageName: packageName, voided: voided, revokedAt: revokedAt,
                                                       source: source, now: now, tx)
                periodsBuilt.count = built.periodsBuilt
                return built.facts
            }
            if let newest = chain.first, newest.purchase.state == .pending, let root = chain.last?.token {
                found.pending = PlayPendingBinding(token: root, isTest: newest.purchase.isTest,
                                                   accountToken: newest.purchase.obfuscatedExternalAccountId)
            }
            if let newest = chain.first, !newest.purchase.acknowledged, newest.purchase.state.serves,
               let line = newest.purchase.line {
                found.unacknowledged = (line.productId, newest.token, true)
            }
        } else {
            guard let productId else { return found }
            let purchase = try answered { () throws(GooglePlayError) in
                try client.product(packageName: packageName, productId: productId, token: token)
            }
            if let t = PlayFacts.product(purchase, productId: productId, token: token,
                                         voidedAt: purchase.orderId.flatMap { voided[$0] }, source: source, observedAt: now) {
                found.build = { _ throws(StoreError) in VerifiedFacts(transactions: [t]) }
            }
            if !purchase.acknowledged, purchase.state == .purchased { found.unacknowledged = (productId, token, false) }
            if purchase.state == .pending {
                found.pending = PlayPendingBinding(token: token, isTest: purchase.isTest, accountToken: purchase.obfuscatedExternalAccountId)
            }
        }
        return found
    }

    /// How many periods a fetch's facts built from snapshots (set where they are built, inside the
    /// unit of work; read once it committed).
    final class BuiltPeriods { var count = 0 }

    /// One token of a chain as Google answered it: its snapshot (E25) and the Orders API's answer
    /// (nil: it refused).
    struct FetchedToken {
        let token: String
        let purchase: PlaySubscriptionPurchase
        let snapshot: PlaySnapshot
        let answer: [PlayOrder]?

        var orderIds: [String] { Self.orderIds(purchase) }

        /// The order ids of a token through its latest successful order.
        static func orderIds(_ purchase: PlaySubscriptionPurchase) -> [String] {
            purchase.line?.latestSuccessfulOrderId.flatMap(PlayOrder.idsThrough) ?? []
        }

        /// E25: the Orders API refused, or did not answer the latest order: what it lacks is built
        /// from the token's snapshots.
        var needsSnapshots: Bool {
            guard let answer else { return true }
            return purchase.line?.latestSuccessfulOrderId.map { id in !answer.contains { $0.orderId == id } } ?? false
        }
    }

    /// A fetched chain (newest token first) as facts, with what the gateway kept of it read in
    /// `tx`: E25's snapshots of each token whose periods are built (the ones just fetched
    /// included), and E1's stored orders, whose reported periods are never rebuilt and whose
    /// voids are never lost (the Orders API may refuse where it once answered).
    static func subscriptionFacts(_ chain: [FetchedToken], packageName: String, voided: [String: Instant], revokedAt: Instant?,
                                  source: TransactionSource, now: Instant,
                                  _ tx: any ReadTransaction) throws(StoreError) -> (facts: VerifiedFacts, periodsBuilt: Int) {
        guard let newest = chain.first else { return (VerifiedFacts(), 0) }
        let environment: StoreEnvironment = newest.purchase.isTest ? .sandbox : .production
        var stored: [Transaction] = []
        for id in Set(chain.flatMap(\.orderIds)).sorted() {
            if let t = try tx.transaction(TransactionKey(store: .googlePlay, environment: environment, transactionId: id)) {
                stored.append(t)
            }
        }
        let kept = PlayKeptOrders(stored)
        // E25: a token's kept snapshots, oldest first, and the one just fetched.
        var histories: [String: [PlaySnapshot]] = [:]
        func history(_ fetched: FetchedToken) throws(StoreError) -> [PlaySnapshot] {
            if let read = histories[fetched.token] { return read }
            let read = try tx.playSnapshots(packageName: packageName, purchaseToken: fetched.token, limit: maximumSnapshotsRead)
                .map(PlaySnapshot.init) + [fetched.snapshot]
            histories[fetched.token] = read
            return read
        }
        var periodsBuilt = 0
        var snapshots: [PlayPurchaseSnapshot] = []
        for fetched in chain {
            var orders = fetched.answer ?? []
            if fetched.needsSnapshots {
                orders += kept.reported(among: fetched.orderIds, token: fetched.token).filter { reported in
                    !orders.contains { $0.orderId == reported.orderId }
                }
                let built = PlaySnapshotPeriods.orders(token: fetched.token, history: try history(fetched), answered: orders)
                orders += built
                periodsBuilt += built.count
            }
            snapshots.append(PlayPurchaseSnapshot(token: fetched.token, purchase: fetched.purchase, orders: orders))
        }
        // E24/E25: a revoked newest token is cut at the kept `SUBSCRIPTION_REVOKED` event time, else
        // where the gateway first saw it revoked, whichever path answered: both are kept with the
        // snapshots, so every later fetch finds the same cut (E1).
        var revocation = revokedAt
        if newest.purchase.isRevoked { revocation = PlaySnapshotPeriods.revocation(try history(newest)) }
        let mapped = PlayFacts.subscription(chain: snapshots, voided: voided, revokedAt: revocation, kept: kept, source: source,
                                            observedAt: now)
        // The newest token is kept as the subscription's latest receipt: Google links new tokens
        // to old ones only, so a refresh starts from the newest token the gateway has seen.
        var facts = VerifiedFacts(transactions: mapped.transactions, renewals: mapped.renewal.map { [$0] } ?? [],
                                  receiptData: mapped.transactions.isEmpty ? nil : receipt(packageName, newest.token))
        // E25: every snapshot fetched is kept with the facts (one that says nothing new is not).
        facts.playSnapshots = chain.map { PlaySnapshotRecord($0.snapshot, packageName: packageName, token: $0.token) }
        return (facts, periodsBuilt)
    }

    /// The orders the Orders API answers for `purchase` (every id through its latest successful
    /// order; unknown ones left out); nil when it refuses (E25, `GooglePlayError.isRefusal`). No
    /// answer at all is `storeUnavailable`, as for every other call.
    private func answeredOrders(packageName: String, purchase: PlaySubscriptionPurchase) throws(GatewayError) -> [PlayOrder]? {
        do {
            return try services.client.orders(packageName: packageName, orderIds: FetchedToken.orderIds(purchase))
        } catch {
            if error.isRefusal { return nil }
            throw Self.gatewayError(error)
        }
    }

    /// The product a one-time purchase's order sold (a voided one names no sku): the Orders API's
    /// answer; when it refuses (E25), the purchase stored under that order, nil when none is. An
    /// order Google does not know (404) or no longer keeps (410) is Google's answer about the
    /// purchase, not the Orders API refusing the gateway: `purchaseNotFound` or `purchaseExpired` as for any purchase Google does
    /// not know (a push is then taken with nothing stored).
    private func oneTimeProduct(packageName: String, orderId: String) throws(GatewayError) -> String? {
        do {
            return try services.client.order(packageName: packageName, orderId: orderId).productId
        } catch {
            guard error.isRefusal, error != .notFound, error != .gone else { throw Self.gatewayError(error) }
        }
        let store = facts.store
        return try stored { () throws(StoreError) in
            try store.read { tx throws(StoreError) in
                for environment in [StoreEnvironment.production, .sandbox] {
                    let key = TransactionKey(store: .googlePlay, environment: environment, transactionId: orderId)
                    if let bought = try tx.transaction(key) { return bought.productId }
                }
                return nil
            }
        }
    }

    private func requirePackage(_ packageName: String) throws(GatewayError) {
        guard services.packages.contains(packageName) else {
            throw .invalid("packageName \(packageName) is not a configured Google Play package")
        }
    }

    /// googleplay.md's decisions: `purchase_not_found`, `purchase_expired`, anything else that gave
    /// no answer `store_unavailable` (Pub/Sub redelivers a push answered so).
    private func answered<T>(_ call: () throws(GooglePlayError) -> T) throws(GatewayError) -> T {
        do { return try call() } catch { throw Self.gatewayError(error) }
    }

    static func gatewayError(_ error: GooglePlayError) -> GatewayError {
        switch error {
        case .notFound: .purchaseNotFound
        case .gone: .purchaseExpired
        default: .storeUnavailable("Google Play could not be asked now: \(error.description)",
                                   retryAfterSeconds: error.retryAfterSeconds)
        }
    }
}

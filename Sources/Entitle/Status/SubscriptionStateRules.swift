import IssueCatalog
import Wire

/// E19: a subscription's state and entitlement code, from its latest transaction and renewal info.
///
/// Choices where the rules are silent:
/// - Without renewal info (a signed transaction alone), a live subscription is assumed to renew
///   (the App Store's default), unless its product or renewal product is discontinued (E17).
/// - An expired subscription without an expiration intent is `expiredVoluntary` when auto-renew
///   is off, `expiredProductUnavailable` when its product is discontinued, else `expiredOther`.
/// - An upgraded latest transaction (no replacement seen yet) expires at its cut (E7).
/// - A latest transaction cut by E24 whose cut is still to come is active with auto-renew off.
/// - E27: paused while the renewal info says so and no transaction was bought since the pause.
enum SubscriptionStateRules {
    static func status(of timeline: SubscriptionTimeline, catalog: CatalogSnapshot,
                       introConsumedGroups: Set<String>, now: Instant) -> SubscriptionStatus? {
        guard !timeline.positions.isEmpty else { return nil }
        let latest = timeline.latest
        let renewal = timeline.renewal
        let product = catalog.product(of: latest)
        let renewsInto = renewal?.autoRenewProductId ?? renewal?.productId ?? latest.productId
        let discontinued = (product?.isDiscontinued(at: now) ?? false)
            || (catalog.product(timeline.key.store, storeProductId: renewsInto)?.isDiscontinued(at: now) ?? false)
        // E27: paused since before the latest transaction's end, and no transaction since.
        let pausedAt = renewal?.pausedAt.flatMap { $0 > latest.purchaseDate ? $0 : nil }
        let autoRenewOn = (renewal?.autoRenewStatus ?? true) && !discontinued && !latest.isUpgraded && !latest.isCut
        var expires = latest.isUpgraded || latest.isCut
            ? latest.expiresDate.map { min(latest.revocationDate ?? $0, $0) } : latest.expiresDate
        if let pausedAt, !latest.isCut { expires = expires.map { min($0, pausedAt) } }

        let state: SubscriptionState
        if latest.isVoid {
            state = .revoked  // E6
        } else if latest.isCut, let kind = latest.revocationKind, !(expires.map { now < $0 } ?? false) {
            state = kind.stateAfter  // E24
        } else if let pausedAt, now >= pausedAt {
            state = .paused  // E27
        } else if let expires, now < expires {
            state = autoRenewOn ? .active : .activeAutoRenewOff
        } else if timeline.currentGrace?.contains(now) == true
                    && (renewal?.isInBillingRetry == true || (timeline.currentGraceIsOwn && renewal?.expirationIntent == .billing)) {
            state = .gracePeriod  // E8: the App Store's grace, or the gateway's own while it runs
        } else if renewal?.isInBillingRetry == true {
            state = .billingRetry  // E9
        } else {
            state = expiredState(renewal: renewal, productDiscontinued: product?.isDiscontinued(at: now) ?? false)
        }
        // E19 "whether it renews": an active one renews when auto-renew is on; a lapsed one only
        // while the store still retries the charge (E8/E9). One that expired for billing without
        // billing retry (expiration intent 2) has been given up by the store, even while the
        // gateway's own grace (E8) still serves it and a stale auto-renew status says on.
        let storeRetries = renewal?.isInBillingRetry == true
        let willRenew = autoRenewOn && (state == .active || ([.gracePeriod, .billingRetry].contains(state) && storeRetries))
        let group = latest.subscriptionGroup ?? product?.subscriptionGroup
        let showsGrace = state == .gracePeriod || state == .billingRetry
        return SubscriptionStatus(
            originalTransactionId: timeline.key.originalTransactionId, productId: latest.productId,
            store: timeline.key.store, environment: timeline.key.environment, state: state,
            entitlementCode: code(state, offer: latest.offer), expiresAt: expires, willRenew: willRenew,
            renewsInto: willRenew ? renewsInto : nil,
            gracePeriodExpiresAt: showsGrace ? timeline.currentGrace?.end : nil,
            renewals: timeline.renewals, grants: product?.grants ?? [],
            subscriptionGroup: group,
            trialOrIntroConsumedInGroup: group.map { introConsumedGroups.contains(groupKey(timeline.key.store, timeline.key.environment, $0)) } ?? false,
            offer: latest.offer, latestTransactionId: latest.transactionId)
    }

    private static func expiredState(renewal: RenewalInfo?, productDiscontinued: Bool) -> SubscriptionState {
        switch renewal?.expirationIntent {
        case .voluntary?: return .expiredVoluntary
        case .billing?: return .expiredBilling
        case .priceIncrease?: return .expiredPriceIncrease
        case .productUnavailable?: return .expiredProductUnavailable
        case .other?: return .expiredOther
        case nil:
            if productDiscontinued { return .expiredProductUnavailable }
            return renewal?.autoRenewStatus == false ? .expiredVoluntary : .expiredOther
        }
    }

    /// E19: sign and integer from the state's row, tenths from the offer (.1 trial, .2 intro,
    /// .3 promotional, .4 offer code, and .5 for Apple's win-back offer, which E19's table does not
    /// name: docs/decisions, win-back fraction). Computed in tenths so that the Double is the
    /// nearest one.
    static func code(_ state: SubscriptionState, offer: OfferKind?) -> Double {
        let tenth: Int
        switch offer {
        case .freeTrial?: tenth = 1
        case .introductory?: tenth = 2
        case .promotional?: tenth = 3
        case .offerCode?: tenth = 4
        case .winBack?: tenth = 5
        case nil: tenth = 0
        }
        let base = state.baseCode
        let magnitude = abs(base) * 10 + tenth
        return Double(base < 0 ? -magnitude : magnitude) / 10
    }

    /// Subscription groups are a store's: one group name in two stores is two groups.
    static func groupKey(_ store: Store, _ environment: StoreEnvironment, _ group: String) -> String {
        store.rawValue + "\u{1F}" + environment.rawValue + "\u{1F}" + group
    }
}

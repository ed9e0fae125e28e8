import IssueCatalog
import Wire

/// E37: one stretch of a store subscription's life with one product, as the rules computed it
/// from the facts (`SubscriptionIntervals`). Kept per subscription and product, not per
/// publication, so that which publications a product grants is read from the catalog when a
/// series is made (E17).
public struct SubscriptionInterval: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// E5–E9: a paid period, after refunds (E6), upgrades (E7) and cuts (E24, E27); merged
        /// where periods touch.
        case paid
        /// A period of a transaction in a free trial.
        case trial
        /// E8: the App Store's grace period after a lapse (active; billing retry outside it is not).
        case grace
        /// E8: the gateway's own grace after a lapse in billing trouble, stored as long as the
        /// policy may make it (`EntitlementPolicy.maximumGraceDays`); a series cuts it to the
        /// policy's `graceDays`.
        case ownGrace
        /// E10: a non-renewing purchase from its purchase date for the product's duration, not yet
        /// stacked: stacking is per account and publication (`SubscriberSeries` stacks it).
        case nonRenewing
        /// E6: what a refunded paid transaction would have served; it serves nothing, and marks a
        /// subscription whose paid periods were all refunded (never new, active or churned).
        case refunded
    }

    public var subscription: SubscriptionKey
    /// The store's product id (`store` is the subscription's).
    public var productId: String
    public var kind: Kind
    public var period: ActivePeriod

    public init(subscription: SubscriptionKey, productId: String, kind: Kind, period: ActivePeriod) {
        self.subscription = subscription; self.productId = productId; self.kind = kind; self.period = period
    }

    public var product: StoreProductRef { StoreProductRef(store: subscription.store, storeProductId: productId) }
}

import IssueCatalog

/// An interval some product entitles (or would have, for a void one), before it is spread over
/// the publications the product grants.
struct ProductInterval: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// E5, E7, E10, E11: paid or free service.
        case service
        /// E8: served only because billing retry is in a grace period.
        case grace
        /// E6: what a refunded or revoked transaction would have entitled (for `refunded`, E20).
        case void
        /// E24: what a cut transaction would have entitled after its cut, where the store
        /// returned money (for `refunded`, E20); unlike `void`, its start unlocks nothing.
        case refundedAfterCut
    }

    /// The product's number in the `EntitlementCatalog`; nil for a product it does not know
    /// (which grants nothing).
    var product: Int?
    var period: ActivePeriod
    var kind: Kind
    /// The position, in the account's transaction table, of the transaction that entitles it (a
    /// grace interval: the one whose end it follows, E8); what E36 attributes it to.
    var transaction: Int? = nil
}

import IssueCatalog
import Wire

/// One thing that can entitle issues of one publication to one account, with what E36 reports
/// of it: derived from the engine's own intervals (`CirculationDerivation`), independent of which
/// issues the catalog holds, so that a new issue needs nothing recomputed.
public struct CirculationEvidence: Hashable, Sendable {
    public enum Kind: Int, Hashable, Sendable {
        /// Entitles every issue published in `[start, end)` (E12: service, grace or a grant).
        case interval
        /// Begins a stretch of paid or granted service at `start` (E13): unlocks the latest issue
        /// published at or before it, once `start` has come.
        case unlock
        /// Entitles the one issue `issueId` (E14 a purchase, E22 a code).
        case issue
    }

    public var kind: Kind
    public var publicationId: String
    public var start: Instant
    public var end: Instant
    /// For `.issue`; empty otherwise.
    public var issueId: String
    public var basis: CirculationBasis
    /// The transaction's store; nil for a grant.
    public var store: Store?
    /// The catalog product id; nil for a grant.
    public var productId: String?
    /// The store's `originalTransactionId`, or the grant id.
    public var subscriptionId: String
    /// When the subscription began (its first transaction, a trial included) or the grant starts:
    /// E36's "began first".
    public var beganAt: Instant

    public init(kind: Kind, publicationId: String, start: Instant, end: Instant, issueId: String = "",
                basis: CirculationBasis, store: Store?, productId: String?, subscriptionId: String, beganAt: Instant) {
        self.kind = kind; self.publicationId = publicationId; self.start = start; self.end = end; self.issueId = issueId
        self.basis = basis; self.store = store; self.productId = productId; self.subscriptionId = subscriptionId
        self.beganAt = beganAt
    }

    /// reports.md, "Began first, and ties": basis first, then the earliest beginning, then the
    /// store's name, then the smaller subscription (or grant) id; within one subscription, the
    /// latest start, then the smaller product id (decision 87).
    public static func decides(_ a: Self, over b: Self) -> Bool {
        if a.basis != b.basis { return a.basis < b.basis }
        if a.beganAt != b.beganAt { return a.beganAt < b.beganAt }
        let sa = a.store?.rawValue ?? "", sb = b.store?.rawValue ?? ""
        if sa != sb { return sa.utf8.lexicographicallyPrecedes(sb.utf8) }
        if a.subscriptionId != b.subscriptionId { return a.subscriptionId.utf8.lexicographicallyPrecedes(b.subscriptionId.utf8) }
        // Within one subscription: the transaction begun last (an upgrade's, a renewal's), then
        // the smaller product id, so the answer never depends on the order facts came in.
        if a.start != b.start { return a.start > b.start }
        return (a.productId ?? "").utf8.lexicographicallyPrecedes((b.productId ?? "").utf8)
    }
}

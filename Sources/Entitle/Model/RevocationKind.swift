/// E24: how a transaction was revoked, which decides whether the revocation voids it (E6) or
/// cuts it, and what the subscription reports afterwards (E19, E20). A transaction with a
/// `revocationDate` and no kind is void: Apple's `revocationType` absent means a full refund.
/// Raw values are what rows hold.
public enum RevocationKind: String, Hashable, Sendable, CaseIterable {
    /// E6: as if never bought: a full refund (Apple `REFUND_FULL` or no type), a voided
    /// Google Play order or one `REFUNDED`, a Stripe charge refunded in full, a dispute lost.
    case void
    /// Cut, money returned pro rata (Apple `REFUND_PRORATED`); the reader asked for it.
    case proratedRefund
    /// Cut, money returned by the store without the reader's request (a Google Play revoke
    /// without a voided order).
    case revokedWithRefund
    /// Cut, no money returned: the family organiser stopped sharing (Apple `FAMILY_REVOKE`).
    case familyRevoke
    /// Cut, no money returned: the reader ended the subscription before its period ended (a
    /// Stripe cancellation the reader asked for).
    case canceledByReader
    /// Cut, no money returned: the subscription was ended before its period ended for any other
    /// reason (a Stripe cancellation by the merchant or for non-payment).
    case canceledOther

    /// E24: a cut entitles `[purchaseDate, min(expiresDate, revocationDate))`; only `void` is E6.
    public var isCut: Bool { self != .void }

    /// E20 after a cut: where the store returned money an issue the uncut interval would have
    /// entitled is `refunded`, else `notSubscribedWhenPublished`.
    public var returnedMoney: Bool {
        switch self {
        case .void, .proratedRefund, .revokedWithRefund: return true
        case .familyRevoke, .canceledByReader, .canceledOther: return false
        }
    }

    /// E24: the state of a subscription whose latest transaction is cut, once the cut has come:
    /// `expiredVoluntary` when the reader asked (a prorated refund, a reader's cancellation),
    /// `expiredOther` otherwise; `revoked` belongs to `void` alone.
    public var stateAfter: SubscriptionState {
        switch self {
        case .void: return .revoked
        case .proratedRefund, .canceledByReader: return .expiredVoluntary
        case .revokedWithRefund, .familyRevoke, .canceledOther: return .expiredOther
        }
    }
}

extension Transaction {
    /// E6 and E24: revoked, not by an upgrade (E7), and not a cut: entitles nothing.
    public var isVoid: Bool {
        revocationDate != nil && !isUpgraded && !(revocationKind?.isCut ?? false)
    }

    /// E24: the revocation is a cut (an upgrade's revocation date is E7's cut, not this).
    public var isCut: Bool {
        revocationDate != nil && !isUpgraded && (revocationKind?.isCut ?? false)
    }

    /// E24: money returned on a transaction that is not revoked: recorded (history), and
    /// changes no entitlement.
    public var isPartialRefund: Bool { revocationDate == nil && revocationPercentage != nil }

    /// The kind a revoked transaction's revocation reads as (absent: a full refund, E6); nil
    /// when it is not revoked or was upgraded.
    public var effectiveRevocationKind: RevocationKind? {
        revocationDate != nil && !isUpgraded ? (revocationKind ?? .void) : nil
    }
}

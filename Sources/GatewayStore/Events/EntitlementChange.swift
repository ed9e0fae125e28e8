import Entitle
import Wire

/// Why an account's entitlements changed, as `entitlement.changed` says it (http-api.md: purchase,
/// renewal, refund, expiry, transfer, grant). Decided from the facts a unit of work changed, so the
/// event is written with the change, in the same unit of work.
public enum EntitlementChangeCause: String, Sendable, CaseIterable, Comparable {
    case purchase
    case renewal
    case refund
    /// Renewal information alone changed (auto-renew turned off, billing retry, grace, expiry
    /// intent): what Apple tells before and when a subscription lapses.
    case expiry
    /// The account lost a subscription to another account (E4) or received one from another.
    case transfer
    case grant
    case grantRevoked
    case codeRedeemed

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// E6: a revoked transaction is a refund; a transaction that is not the first of its
    /// subscription is a renewal; otherwise a purchase.
    public static func of(_ transaction: Transaction) -> EntitlementChangeCause {
        if transaction.revocationDate != nil { return .refund }
        return transaction.transactionId == transaction.originalTransactionId ? .purchase : .renewal
    }
}

/// Writes `entitlement.changed` into the outbox inside the unit of work that changed the account.
enum EntitlementChangeEvent {
    static func record(accountId: String, causes: Set<EntitlementChangeCause>, at instant: Instant,
                       policy: EventPolicy, _ tx: any WriteTransaction) throws(StoreError) {
        guard policy.webhooks, !causes.isEmpty else { return }
        let version = try tx.factsVersion(ofAccount: accountId)
        var w = JSONWriter()
        w.object { w in
            w.field("accountId", accountId)
            w.key("causes")
            w.array { w in for cause in causes.sorted() { w.string(cause.rawValue) } }
            w.field("factsVersion", Int(version))
        }
        try tx.insert(OutboxEvent(eventId: "entitlement.changed/\(accountId)/\(version)", kind: .entitlementChanged,
                                  accountId: accountId, data: String(decoding: w.bytes, as: UTF8.self), createdAt: instant))
    }
}

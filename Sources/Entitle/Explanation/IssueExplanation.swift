import IssueCatalog
import Wire

/// Why one account may or may not download one issue (E20), with the evidence a support agent
/// needs: the active periods nearest the issue's publication, the transaction that entitles it or
/// would have but was refunded, and one sentence that can be pasted to a reader.
public struct IssueExplanation: Sendable, Equatable {
    public var issue: Issue
    public var entitled: Bool
    public var reasons: [EntitlementReason]
    /// The active period (E12) holding `publishedAt`, if any.
    public var periodContaining: ActivePeriod?
    /// The nearest active period that ended at or before `publishedAt`, and the nearest that
    /// began after it.
    public var periodBefore: ActivePeriod?
    public var periodAfter: ActivePeriod?
    /// The purchase or renewal whose own interval holds `publishedAt`, began the period that
    /// unlocked the issue (E13), or bought it (E14).
    public var transaction: TransactionEvidence?
    /// The refunded transaction that would have entitled the issue (E6, E20 `refunded`).
    public var refunded: TransactionEvidence?
    /// The grant (E21) that entitles it, where no transaction does.
    public var grant: Grant?
    public var summary: String
}

/// One transaction as evidence.
public struct TransactionEvidence: Sendable, Equatable {
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    public var store: Store
    public var environment: StoreEnvironment
    public var purchaseDate: Instant
    public var expiresDate: Instant?
    public var revocationDate: Instant?
    /// E24: how it was revoked (nil when it was not, or was upgraded) and the share returned.
    public var revocationKind: RevocationKind?
    public var revocationPercentage: Int?

    init(_ t: Transaction) {
        transactionId = t.transactionId; originalTransactionId = t.originalTransactionId; productId = t.productId
        store = t.store; environment = t.environment; purchaseDate = t.purchaseDate; expiresDate = t.expiresDate
        revocationDate = t.revocationDate; revocationKind = t.effectiveRevocationKind
        revocationPercentage = t.revocationPercentage
    }
}

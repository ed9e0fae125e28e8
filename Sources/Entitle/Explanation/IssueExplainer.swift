import IssueCatalog
import Wire

/// E20 for support staff: the engine decides the reasons; this finds the facts behind them among
/// the account's transactions. It reads, never decides: whatever it finds, `entitled` and
/// `reasons` are the engine's.
public enum IssueExplainer {
    /// Nil for an issue the catalog does not hold.
    /// `facts` are those `entitlements` were evaluated from.
    public static func explain(_ ref: IssueRef, entitlements: AccountEntitlements, facts: AccountFacts,
                               catalog: CatalogSnapshot) -> IssueExplanation? {
        guard let answer = entitlements.explanation(for: ref), let issue = catalog.issue(ref) else { return nil }
        let at = issue.publishedAt
        let periods = entitlements.periods(of: ref.publicationId)
        let covers = { (t: Transaction) in catalog.product(of: t)?.grants.contains(ref.publicationId) ?? false }
        let relevant = facts.transactions.filter(covers).sorted { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
        let reasons = answer.reasons
        var explanation = IssueExplanation(
            issue: issue, entitled: answer.entitled, reasons: reasons,
            periodContaining: periods.first { $0.contains(at) },
            periodBefore: periods.last { $0.end <= at },
            periodAfter: periods.first { $0.start > at },
            transaction: nil, refunded: nil, grant: nil, summary: "")
        explanation.transaction = entitlingTransaction(issue, reasons, relevant, periods, catalog)
        if explanation.transaction == nil {
            let standing = facts.grants.filter { $0.revokedAt == nil && $0.publications.contains(ref.publicationId) }
            explanation.grant = entitlingGrant(issue, reasons, standing, periods)
        }
        if reasons == [.refunded] {
            explanation.refunded = (relevant.first { t in
                t.isVoid && (interval(of: t, catalog).map { $0.contains(at) } ?? false
                    || catalog.product(of: t)?.issue == ref
                    || catalog.latestIssue(of: ref.publicationId, atOrBefore: t.purchaseDate)?.ref == ref)
            } ?? relevant.first { t in
                // E24: a cut that returned money, after which the issue came out.
                t.isCut && (t.revocationKind?.returnedMoney ?? false)
                    && (interval(of: t, catalog).map { $0.contains(at) } ?? false) && t.revocationDate.map { $0 <= at } ?? false
            }).map(TransactionEvidence.init)
        }
        explanation.summary = SupportSentence.summary(explanation)
        return explanation
    }

    private static func entitlingTransaction(_ issue: Issue, _ reasons: [EntitlementReason], _ relevant: [Transaction],
                                             _ periods: [ActivePeriod], _ catalog: CatalogSnapshot) -> TransactionEvidence? {
        let counts = { (t: Transaction) in !t.isVoid }
        if reasons.contains(.purchased) {
            return relevant.first { counts($0) && catalog.product(of: $0)?.issue == issue.ref }.map(TransactionEvidence.init)
        }
        if reasons.contains(.activePeriod) {
            return relevant.last { counts($0) && (interval(of: $0, catalog)?.contains(issue.publishedAt) ?? false) }
                .map(TransactionEvidence.init)
        }
        if reasons.contains(.unlockedAtStart) {
            // The period whose start unlocked it (E13), the first to begin at or after it came
            // out, began with a purchase or a renewal (or a grant: `entitlingGrant`).
            let start = periods.first { $0.start >= issue.publishedAt }?.start
            return relevant.first { counts($0) && $0.purchaseDate == start }.map(TransactionEvidence.init)
        }
        if reasons.contains(.gracePeriod) {
            return relevant.last { counts($0) && ($0.expiresDate.map { $0 <= issue.publishedAt } ?? false) }
                .map(TransactionEvidence.init)
        }
        return nil
    }

    /// E21: the grant that gives the issue (one issue for good, or a window holding its
    /// publication), or whose start began the period that unlocked it (E13).
    private static func entitlingGrant(_ issue: Issue, _ reasons: [EntitlementReason], _ grants: [Grant],
                                       _ periods: [ActivePeriod]) -> Grant? {
        if reasons.contains(.granted) {
            let own = grants.filter { $0.origin == .account }
            return own.first { $0.issue == issue.ref } ?? own.first { $0.issue == nil && $0.period.contains(issue.publishedAt) }
        }
        if reasons.contains(.institution) {  // E30
            return grants.first { $0.origin == .institution && $0.period.contains(issue.publishedAt) }
        }
        if reasons.contains(.unlockedAtStart) {
            let start = periods.first { $0.start >= issue.publishedAt }?.start
            return grants.first { $0.issue == nil && $0.start == start }
        }
        return nil
    }

    /// A transaction's own interval, as E20 reads it: `[purchaseDate, expiresDate)`, or for a
    /// non-renewing product `[purchaseDate, purchaseDate + duration)` without stacking.
    static func interval(of t: Transaction, _ catalog: CatalogSnapshot) -> ActivePeriod? {
        if let expires = t.expiresDate { return ActivePeriod(start: t.purchaseDate, end: expires) }
        if let duration = catalog.product(of: t)?.duration {
            return ActivePeriod(start: t.purchaseDate, end: duration.added(to: t.purchaseDate))
        }
        if catalog.product(of: t)?.kind == .free { return ActivePeriod(start: t.purchaseDate, end: .distantFuture) }
        return nil
    }
}

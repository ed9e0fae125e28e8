import IssueCatalog

/// One account's entitlements at one instant: the engine's answer (E5–E20).
public struct AccountEntitlements: Sendable {
    public let now: Instant
    /// E19, one per subscription, in (environment, originalTransactionId) order.
    public let subscriptions: [SubscriptionStatus]
    /// Single-issue, non-renewing and free purchases, and purchases of products the catalog does
    /// not know, in (purchaseDate, transactionId) order.
    public let purchases: [PurchaseStatus]
    let catalog: EntitlementCatalog
    let held: [String: PublicationEntitlements]

    init(now: Instant, subscriptions: [SubscriptionStatus], purchases: [PurchaseStatus],
         catalog: EntitlementCatalog, held: [String: PublicationEntitlements]) {
        self.now = now; self.subscriptions = subscriptions; self.purchases = purchases
        self.catalog = catalog; self.held = held
    }

    /// E5–E11 merged: the active periods (service and grace) in one publication, oldest first.
    public func periods(of publicationId: String) -> [ActivePeriod] {
        held[publicationId]?.periods ?? []
    }

    /// Visible issues (published at `now`, not retracted; E16) newest first, with reasons
    /// (E12–E15, E20). Across publications (`publicationId == nil`), newest first, ties by
    /// publication id. An unknown publication has no issues.
    public func issues(publicationId: String?, entitledOnly: Bool) -> [IssueEntitlement] {
        let ids = publicationId.map { [$0] } ?? catalog.publicationOrder
        var out: [IssueEntitlement] = []
        for id in ids {
            guard let p = publication(id) else { continue }
            let positions = entitledOnly ? p.entitledPositions() : p.visiblePositions()
            out.append(contentsOf: positions.reversed().map(p.entitlement(at:)))
        }
        if ids.count > 1 {
            out.sort { a, b in
                if a.issue.publishedAt != b.issue.publishedAt { return a.issue.publishedAt > b.issue.publishedAt }
                if a.issue.publicationId != b.issue.publicationId { return a.issue.publicationId < b.issue.publicationId }
                return a.issue.id > b.issue.id
            }
        }
        return out
    }

    /// One issue: nil when the reader cannot see it (unknown, scheduled or retracted; E16);
    /// otherwise whether it is entitled and why.
    public func entitlement(for ref: IssueRef) -> IssueEntitlement? {
        guard let e = explanation(for: ref), e.issue.state(at: now) == .published else { return nil }
        return e
    }

    /// For support staff (E20): like `entitlement(for:)`, but a scheduled or retracted issue is
    /// answered too, with the reason `scheduled` or `retracted`. Nil only for an unknown issue.
    public func explanation(for ref: IssueRef) -> IssueEntitlement? {
        guard let p = publication(ref.publicationId),
              let issue = catalog.snapshot.issue(ref) else { return nil }
        var position = p.index.lowerBound(issue.publishedAt)
        while position < p.index.count, p.index.issue(at: position).id != ref.issueId { position += 1 }
        guard position < p.index.count else { return nil }
        return p.entitlement(at: position)
    }

    /// Whether a download token may be issued for the issue now.
    public func isEntitled(_ ref: IssueRef) -> Bool { entitlement(for: ref)?.entitled ?? false }

    /// The number of entitled, visible issues in a publication, without building the list.
    public func entitledCount(publicationId: String) -> Int {
        publication(publicationId)?.entitledPositions().count ?? 0
    }

    /// A publication the account holds nothing in still has free issues (E15) and refusals to explain.
    private func publication(_ id: String) -> PublicationEntitlements? {
        if let held = held[id] { return held }
        guard let index = catalog.publication(id) else { return nil }
        return PublicationEntitlements(index: index, grants: PublicationGrants(), now: now)
    }
}

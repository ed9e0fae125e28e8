import IssueCatalog
import Wire

/// One account's entitlements at one instant: the engine's answer (E5–E20).
public struct AccountEntitlements: Sendable {
    public let now: Instant
    /// E19, one per subscription, in (environment, originalTransactionId) order.
    public let subscriptions: [SubscriptionStatus]
    /// Single-issue, non-renewing and free purchases, and purchases of products the catalog does
    /// not know, in (purchaseDate, transactionId) order.
    public let purchases: [PurchaseStatus]
    let catalog: EntitlementCatalog
    /// By publication number: the publications the account holds something in.
    let held: PublicationMap<PublicationEntitlements>

    init(now: Instant, subscriptions: [SubscriptionStatus], purchases: [PurchaseStatus],
         catalog: EntitlementCatalog, held: PublicationMap<PublicationEntitlements>) {
        self.now = now; self.subscriptions = subscriptions; self.purchases = purchases
        self.catalog = catalog; self.held = held
    }

    /// E5–E11 merged: the active periods (service and grace) in one publication, oldest first.
    public func periods(of publicationId: String) -> [ActivePeriod] {
        catalog.publicationNumbers[publicationId].flatMap { held[$0]?.periods } ?? []
    }

    /// Visible issues (published at `now`, not retracted; E16) newest first, with reasons
    /// (E12–E15, E20). Across publications (`publicationId == nil`), newest first, ties by
    /// publication id. An unknown publication has no issues.
    /// Costs O(listed issues + log issues): nothing is sorted, runs are walked and merged.
    public func issues(publicationId: String?, entitledOnly: Bool) -> [IssueEntitlement] {
        IssueListing.list(catalog, publicationId: publicationId, entitledOnly: entitledOnly, publication)
    }

    /// Until when `issues(publicationId:entitledOnly:)` keeps its answer with the same facts and
    /// catalog: the first instant after `now` at which an issue comes out or a period begins in
    /// the publications listed. A server may keep a rendered list until then (E18: nothing else
    /// changes with time alone).
    public func issuesStableUntil(publicationId: String?) -> Instant {
        IssueListing.stableUntil(catalog, publicationId: publicationId) { publication($0).stableUntil }
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
        guard let number = catalog.publicationNumbers[ref.publicationId],
              let issue = catalog.snapshot.issue(ref) else { return nil }
        let p = publication(number)
        return p.index.position(of: issue).map(p.entitlement(at:))
    }

    /// Whether a download token may be issued for the issue now.
    public func isEntitled(_ ref: IssueRef) -> Bool { entitlement(for: ref)?.entitled ?? false }

    /// The number of entitled, visible issues in a publication, without building the list.
    public func entitledCount(publicationId: String) -> Int {
        guard let number = catalog.publicationNumbers[publicationId] else { return 0 }
        var count = 0
        publication(number).forEachListed(entitledOnly: true) { _, _ in count += 1 }
        return count
    }

    /// A publication the account holds nothing in still has free issues (E15) and refusals to explain.
    func publication(_ number: Int) -> PublicationEntitlements {
        held[number] ?? PublicationEntitlements(index: catalog.publications[number], grants: PublicationGrants(), now: now)
    }
}

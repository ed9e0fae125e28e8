import TestSupport
import Testing
import Entitle
import IssueCatalog
import Wire

/// Issue lists are built by walking and merging runs; these properties hold them to the
/// single-issue answers (a separate path, by binary search) and to the documented order, over
/// random accounts whose issues are moved onto a coarse grid so that publications tie often.
@Suite struct ListingPropertyTests {
    static let cases = 10_000
    /// Issues are moved to the start of their 30-day slot: many share an instant.
    static let slot = 30 * RandomAccount.day

    @Test func listsAreOrderedCompleteAndAgreeWithSingleIssueAnswers() {
        RandomAccount.forEach(Self.cases, seed: 5) { _, a in
            let snapshot = CatalogSnapshot(Catalog(
                publications: a.catalog.publications, products: a.catalog.products,
                issues: a.catalog.issues.map { issue in
                    var moved = issue
                    let ms = issue.publishedAt.millisecondsSinceEpoch
                    moved.publishedAt = Instant(millisecondsSinceEpoch: ms - ms % Self.slot)
                    return moved
                }))
            let r = EntitlementEngine.evaluate(catalog: snapshot,
                                               facts: AccountFacts(transactions: a.transactions, renewals: a.renewals),
                                               policy: a.policy, now: a.now)
            let all = r.issues(publicationId: nil, entitledOnly: false)
            // Newest first, ties by publication id, then by issue id descending.
            let expectedOrder = all.sorted { x, y in
                let a = x.issue, b = y.issue
                if a.publishedAt != b.publishedAt { return a.publishedAt > b.publishedAt }
                if a.publicationId != b.publicationId { return a.publicationId < b.publicationId }
                return a.id > b.id
            }
            #expect(all.map(\.issue.ref) == expectedOrder.map(\.issue.ref))
            // Exactly the visible issues (E16), each with the single-issue answer.
            let visible = snapshot.catalog.issues.filter { $0.state(at: a.now) == .published }.map(\.ref)
            #expect(Set(all.map(\.issue.ref)) == Set(visible) && all.count == visible.count)
            #expect(all.allSatisfy { r.entitlement(for: $0.issue.ref) == $0 })
            #expect(r.issues(publicationId: nil, entitledOnly: true) == all.filter(\.entitled))
            for publication in ["p1", "p2"] {
                let own = all.filter { $0.issue.publicationId == publication }
                #expect(r.issues(publicationId: publication, entitledOnly: false) == own)
                #expect(r.issues(publicationId: publication, entitledOnly: true) == own.filter(\.entitled))
                #expect(r.entitledCount(publicationId: publication) == own.filter(\.entitled).count)
            }
        }
    }
}

import Entitle
import IssueCatalog
import Wire

/// One catalog revision, ready for requests: the snapshot, the engine's prepared index and every
/// issue's unchanging JSON, rendered once per catalog change instead of once per request.
package final class CatalogState: Sendable {
    package let revision: Int64
    package let snapshot: CatalogSnapshot
    package let entitlementCatalog: EntitlementCatalog
    /// By publication id, in `snapshot.issues(of:)` order (`IssueEntitlement.indexInPublication`).
    private let fragments: [String: [IssueFragment]]
    /// The same, as flat list items (the issue-list route's fast rendering).
    private let items: [String: IssueListItems]
    /// A hash of everything lists are rendered from (publications, products, every issue as
    /// editors see it): the catalog's part of list entity tags. Of the content, not the revision,
    /// so processes on one database, or a restarted one, give one list the same tag.
    package let fingerprint: FNV1a

    package init(revision: Int64, catalog: Catalog) {
        self.revision = revision
        snapshot = CatalogSnapshot(catalog)
        entitlementCatalog = EntitlementCatalog(snapshot)
        var fragments: [String: [IssueFragment]] = [:]
        for issue in catalog.issues where fragments[issue.publicationId] == nil {
            fragments[issue.publicationId] = snapshot.issues(of: issue.publicationId).map(IssueFragment.init)
        }
        self.fragments = fragments
        items = fragments.mapValues(IssueListItems.init)
        fingerprint = Self.fingerprint(of: snapshot, issuesOf: fragments.keys.sorted())
    }

    private static func fingerprint(of snapshot: CatalogSnapshot, issuesOf publicationIds: [String]) -> FNV1a {
        var w = JSONWriter(capacity: 1 << 16)
        for publication in snapshot.publications { w.publication(publication) }
        for product in snapshot.products { w.product(product) }
        for publicationId in publicationIds {
            // `state` is left out: it depends on the time, which tags of time-dependent lists add.
            for issue in snapshot.issues(of: publicationId) { w.catalogIssue(issue, now: .distantPast) }
        }
        var hash = FNV1a()
        hash.combine(bytes: w.bytes)
        return hash
    }

    /// A publication's fragments, indexed by `IssueEntitlement.indexInPublication`.
    package func fragments(of publicationId: String) -> [IssueFragment] { fragments[publicationId] ?? [] }

    /// A publication's list items, indexed like its fragments.
    package func items(of publicationId: String) -> IssueListItems? { items[publicationId] }
}

/// The members of an issue list item that do not depend on the reader (http-api.md, Issue list item).
package struct IssueFragment: Sendable {
    /// `"publicationId":…,"id":…,"title":…,"publishedAt":…,"free":…`
    package let members: [UInt8]
    /// The `assets` array.
    package let assets: [UInt8]
    /// `"assets":[…]`, so a list item is written with plain appends (the key is never re-quoted).
    package let assetsMember: [UInt8]

    package init(_ issue: Issue) {
        var head = JSONWriter(capacity: 160)
        head.object { w in
            w.field("publicationId", issue.publicationId)
            w.field("id", issue.id)
            w.field("title", issue.title)
            w.field("publishedAt", issue.publishedAt.rfc3339)
            w.field("free", issue.free)
        }
        members = Array(head.bytes.dropFirst().dropLast())
        var list = JSONWriter(capacity: 128)
        list.assets(issue.assets)
        assets = list.bytes
        assetsMember = Array(#""assets":"#.utf8) + list.bytes
    }
}

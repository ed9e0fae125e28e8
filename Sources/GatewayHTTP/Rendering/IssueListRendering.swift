import Entitle
import GatewayCore
import IssueCatalog
import Wire

/// An issue list (http-api.md) rendered from entitlements: the catalog's pre-rendered issues
/// around each item's reasons, a page at a time.
package enum IssueListRendering {
    /// A typical issue list item's size, to size the response buffer once.
    package static let renderedIssueBytes = 480

    /// `reasons`: the reason members by reason set (`ReasonMembers`); `extra` writes members after
    /// the list (an institution's name, E30).
    package static func body(_ items: [IssueEntitlement], _ page: ListPage, _ state: CatalogState, reasons: [[UInt8]],
                             extra: (inout JSONWriter) -> Void = { _ in }) -> [UInt8] {
        var pager = ListPager(page)
        var w = JSONWriter(capacity: 64 + min(items.count, page.limit ?? items.count) * renderedIssueBytes)
        w.object { w in
            w.key("issues")
            w.array { w in
                // Items come in runs of one publication: its fragments are looked up once per run.
                var publicationId = "", fragments: [IssueFragment] = []
                for item in items where pager.admits({ item.issue }) {
                    if item.issue.publicationId != publicationId {
                        publicationId = item.issue.publicationId
                        fragments = state.fragments(of: publicationId)
                    }
                    let index = item.indexInPublication
                    w.accountIssue(index < fragments.count ? fragments[index] : IssueFragment(item.issue),
                                   reasons: reasons[Int(item.reasonSet)])
                }
            }
            if let next = pager.next { w.field("next", next.token) }
            extra(&w)
        }
        return w.bytes
    }
}

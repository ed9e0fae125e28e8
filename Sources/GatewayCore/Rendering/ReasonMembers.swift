import Entitle
import IssueCatalog
import Wire

/// `"entitled":…,"reasons":[…]` of an issue list item (http-api.md, E20), rendered once for every
/// combination of reasons rather than once per item: lists run to hundreds of items per request.
package enum ReasonMembers {
    /// Indexed by `IssueEntitlement.reasonSet`.
    package static let rendered: [[UInt8]] = {
        (0..<(1 << EntitlementReason.allCases.count)).map { bits in
            let reasons = EntitlementReason.allCases.indices.filter { bits & (1 << $0) != 0 }.map { EntitlementReason.allCases[$0] }
            // The entitlement's own answer for these reasons, so that what entitles is decided in one place.
            let item = IssueEntitlement(issue: placeholder, reasons: reasons)
            var w = JSONWriter(capacity: 96)
            w.object { w in
                w.field("entitled", item.entitled)
                w.key("reasons")
                w.array { w in for reason in item.reasons { w.string(reason.rawValue) } }
            }
            return Array(w.bytes.dropFirst().dropLast())
        }
    }()

    private static let placeholder = Issue(publicationId: "-", id: "-", title: "-", publishedAt: Instant(millisecondsSinceEpoch: 0))
}

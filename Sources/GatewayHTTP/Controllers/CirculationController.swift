import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// `GET /v1/publications/{publicationId}/issues/{issueId}/circulation` (reports.md E36; admin,
/// editors of the publication): the counts as JSON, or with `?format=csv` the recipient list.
package struct CirculationController: APIController {
    private let access: Access
    private let circulation: Circulation

    package init(access: Access, circulation: Circulation) { self.access = access; self.circulation = circulation }

    package func register(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/publications/{publicationId}/issues/{issueId}/circulation", execution: .store,
                   route: { [self] context throws(GatewayError) in
            let publicationId = try access.requireEditor(&context)
            let format = context.queryParameter("format") ?? "json"
            guard format == "json" || format == "csv" else { throw .invalid("format must be json or csv") }
            let report = try circulation.report(IssueRef(publicationId: publicationId, issueId: context.parameter("issueId")))
            if format == "csv" { return .text(200, CirculationCSV.render(report), contentType: "text/csv; charset=utf-8") }
            return .json(200) { w in Self.render(report, &w) }
        })
    }

    private static func render(_ report: CirculationReport, _ w: inout JSONWriter) {
        w.object { w in
            w.field("publicationId", report.issue.publicationId)
            w.field("issueId", report.issue.id)
            w.field("publishedAt", report.issue.publishedAt.rfc3339)
            w.field("asOf", report.asOf.rfc3339)
            w.field("free", report.issue.free)
            w.key("entitled")
            if let entitled = report.entitled {
                w.object { w in
                    bases(entitled, &w)
                    w.key("byStore")
                    w.object { w in for store in Store.allCases { w.field(store.rawValue, entitled.byStore[store] ?? 0) } }
                }
            } else {
                w.null()
            }
            w.key("downloaded")
            w.object { w in
                w.field("total", report.downloadedTotal)
                for basis in CirculationBasis.allCases { w.field(basis.name, report.downloaded[basis]) }
                w.field("notEntitled", report.notEntitled)
            }
            w.key("institutions")
            w.object { w in
                w.field("entitled", report.institutionsEntitled)
                w.field("downloaded", report.institutionsDownloaded)
            }
        }
    }

    private static func bases(_ counts: CirculationReport.Counts, _ w: inout JSONWriter) {
        w.field("total", counts.total)
        for basis in CirculationBasis.allCases { w.field(basis.name, counts[basis]) }
    }
}

/// reports.md's recipient list: a header line, one row per account entitled or that downloaded,
/// in account-id byte order, lines ending in CRLF (RFC 4180), instants RFC 3339 UTC with
/// milliseconds, empty fields empty.
package enum CirculationCSV {
    package static let header = "accountId,basis,store,productId,subscriptionId,downloaded,firstDownloadAt,lastDownloadAt,downloads"

    package static func render(_ report: CirculationReport) -> String {
        var out = header + "\r\n"
        for row in report.rows {
            let basis = row.deciding?.basis.name ?? (report.issue.free ? "free" : "none")
            let fields = [row.accountId, basis, row.deciding?.store?.rawValue ?? "", row.deciding?.productId ?? "",
                          row.deciding?.subscriptionId ?? "", row.download == nil ? "false" : "true",
                          row.download?.firstAt.rfc3339 ?? "", row.download?.lastAt.rfc3339 ?? "",
                          String(row.download?.downloads ?? 0)]
            out += fields.map(escaped).joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// RFC 4180 §2: a field holding a comma, quote or line break is quoted, quotes doubled.
    private static func escaped(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return field }
        return "\"" + String(field.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
    }
}

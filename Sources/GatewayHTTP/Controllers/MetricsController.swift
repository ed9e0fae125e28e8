import Entitle
import GatewayCore
import HTTPServer
import Wire

/// reports.md E37: `GET /v1/publications/{publicationId}/metrics` (JSON, or CSV with
/// `format=csv`) and `…/metrics.svg`, for admin and the publication's editors.
package struct MetricsController: APIController {
    private let access: Access
    private let subscribers: SubscriberMetrics
    private let catalog: CatalogCache

    package init(access: Access, subscribers: SubscriberMetrics, catalog: CatalogCache) {
        self.access = access; self.subscribers = subscribers; self.catalog = catalog
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/publications/{publicationId}/metrics", execution: .store, route: { [self] context throws(GatewayError) in
            let (query, report) = try series(&context)
            switch query.format {
            case .json: return .json(200) { w in MetricsRendering.json(report, query, &w) }
            case .csv:
                return HTTPResponse(status: 200, headers: [("Content-Type", "text/csv; charset=utf-8")],
                                    body: Array(MetricsRendering.csv(report).utf8))
            }
        })
        router.add("GET", "/v1/publications/{publicationId}/metrics.svg", execution: .store, route: { [self] context throws(GatewayError) in
            let (query, report) = try series(&context)
            let title = catalog.state.snapshot.publication(report.publicationId)?.title ?? report.publicationId
            let last = min(query.toDay, SubscriberSeries.day(of: report.asOf))
            let day = SubscriberSeries.dayMilliseconds
            let svg = SubscribersSVG.render(report, publicationTitle: title, interval: query.interval,
                                            from: Instant(millisecondsSinceEpoch: query.fromDay * day),
                                            to: Instant(millisecondsSinceEpoch: (max(last, query.fromDay) + 1) * day))
            return .svg(svg)
        })
    }

    private func series(_ context: inout RequestContext) throws(GatewayError) -> (MetricsQuery, SubscriberMetricsReport) {
        let publicationId = try access.requireEditor(&context)
        let query = try MetricsQuery(context.query)
        let report = try subscribers.series(publicationId: publicationId, from: query.fromDay, to: query.toDay,
                                            interval: query.interval)
        return (query, report)
    }
}

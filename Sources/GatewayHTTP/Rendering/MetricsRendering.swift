import Entitle
import GatewayCore
import IssueCatalog
import Wire

/// reports.md E37's answers: the JSON document and its CSV form (decision 90: one line per point,
/// `start,active,activeAppStore,activeGooglePlay,activeStripe,trials,new,churned,reactivated`,
/// header first, lines ending CRLF as the circulation's CSV).
package enum MetricsRendering {
    package static func json(_ report: SubscriberMetricsReport, _ query: MetricsQuery, _ w: inout JSONWriter) {
        w.object { w in
            w.field("publicationId", report.publicationId)
            w.field("from", query.from)
            w.field("to", query.to)
            w.field("interval", query.interval.rawValue)
            w.field("asOf", report.asOf.rfc3339)
            w.key("points")
            w.array { w in
                for point in report.points {
                    w.object { w in
                        w.field("start", MetricsQuery.text(point.day))
                        w.field("active", point.active)
                        w.key("activeByStore")
                        w.object { w in for store in Store.allCases { w.field(store.rawValue, point.activeByStore[store] ?? 0) } }
                        w.field("trials", point.trials)
                        w.field("new", point.new)
                        w.field("churned", point.churned)
                        w.field("reactivated", point.reactivated)
                    }
                }
            }
        }
    }

    package static let csvHeader = "start,active,activeAppStore,activeGooglePlay,activeStripe,trials,new,churned,reactivated"

    package static func csv(_ report: SubscriberMetricsReport) -> String {
        var out = csvHeader + "\r\n"
        for p in report.points {
            let stores = Store.allCases.map { String(p.activeByStore[$0] ?? 0) }.joined(separator: ",")
            out += "\(MetricsQuery.text(p.day)),\(p.active),\(stores),\(p.trials),\(p.new),\(p.churned),\(p.reactivated)\r\n"
        }
        return out
    }
}

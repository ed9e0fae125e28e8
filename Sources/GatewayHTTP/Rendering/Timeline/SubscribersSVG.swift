import Entitle
import GatewayCore
import IssueCatalog
import Wire

/// reports.md E37's chart (`GET /v1/publications/{publicationId}/metrics.svg`): the active
/// subscriptions, in all and by store, and the trials, one line each over the points, drawn as
/// the timeline is (`ChartPieces`: its scale, time axis and legend; `SVGWriter`). Pure: the
/// same report gives the same bytes.
package enum SubscribersSVG {
    package struct Layout {
        package static let width = 1200, height = 290
        package static let left = 90.0, right = 20.0
        package static var plotWidth: Double { Double(width) - left - right }
        package static let plotTop = 40.0, plotHeight = 180.0
        package static var axisY: Double { plotTop + plotHeight + 6 }
        package static let legendY = 276.0
    }

    /// Each line: its name (class and legend), colour and value at a point.
    package static let lines: [(name: String, colour: String, value: @Sendable (SubscriberSeries.Day) -> Int)] = [
        ("active", "#2e7d32", { $0.active }),
        ("appStore", "#1565c0", { $0.activeByStore[.appStore] ?? 0 }),
        ("googlePlay", "#6a1b9a", { $0.activeByStore[.googlePlay] ?? 0 }),
        ("stripe", "#ef6c00", { $0.activeByStore[.stripe] ?? 0 }),
        ("trials", "#f9a825", { $0.trials }),
    ]

    /// `from` and `to` are the instants the plot spans (the first day answered, the day after the last).
    package static func render(_ report: SubscriberMetricsReport, publicationTitle: String, interval: SeriesInterval,
                               from: Instant, to: Instant) -> String {
        let scale = ChartPieces.Scale(from: from, to: max(to, from.adding(milliseconds: 1)), left: Layout.left,
                                      width: Layout.plotWidth)
        var svg = SVGWriter(width: Layout.width, height: Layout.height)
        let heading = "\(publicationTitle): subscriptions by \(interval.rawValue), \(SupportSentence.day(from)) to "
            + "\(SupportSentence.day(to.adding(milliseconds: -1))) (UTC)"
        svg.title(heading)
        svg.element("text", [("x", "8"), ("y", "22"), ("font-size", "14"), ("font-weight", "bold")]) { $0.characters(heading) }
        let top = max(1, report.points.map { p in lines.map { $0.value(p) }.max() ?? 0 }.max() ?? 0)
        grid(top: top, &svg)
        for line in lines {
            let points = report.points.map { p in
                SVGWriter.number(scale.x(Instant(millisecondsSinceEpoch: p.day * SubscriberSeries.dayMilliseconds))) + ","
                    + SVGWriter.number(y(line.value(p), top: top))
            }.joined(separator: " ")
            guard !points.isEmpty else { continue }
            let latest = report.points.last.map { line.value($0) } ?? 0
            svg.element("polyline", [("class", "line \(line.name)"), ("points", points), ("fill", "none"),
                                     ("stroke", line.colour), ("stroke-width", "1.5")]) {
                $0.title("\(line.name): \(latest) at the last point")
            }
        }
        ChartPieces.timeAxis(scale, y: Layout.axisY, &svg)
        ChartPieces.legend(lines.map { ($0.name, $0.colour) }, left: Layout.left, y: Layout.legendY, &svg)
        return svg.finish()
    }

    private static func y(_ value: Int, top: Int) -> Double {
        Layout.plotTop + Layout.plotHeight - Double(value) / Double(top) * Layout.plotHeight
    }

    /// Horizontal lines at 0, half and the top value, labelled on the left.
    private static func grid(top: Int, _ svg: inout SVGWriter) {
        for value in Set([0, top / 2, top]).sorted() {
            let y = SVGWriter.number(y(value, top: top))
            svg.element("line", [("x1", SVGWriter.number(Layout.left)), ("y1", y), ("x2", SVGWriter.number(Layout.left + Layout.plotWidth)),
                                 ("y2", y), ("stroke", "#e0e0e0")])
            svg.element("text", [("x", SVGWriter.number(Layout.left - 6)), ("y", y), ("text-anchor", "end")]) {
                $0.characters(String(value))
            }
        }
    }
}

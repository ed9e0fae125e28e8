import Entitle
import GatewayCore
import Wire

/// The timeline picture (http-api.md, `GET /v1/accounts/{accountId}/timeline.svg`; the Guide's
/// Figure 5-1): one lane per kind of period (active, grace, granted, refunded) as bars along
/// time, every issue of the window as a mark coloured by entitled or not with its reasons in a
/// `<title>` (shown on hover), today's line, an axis whose step follows the span, and a legend.
/// Pure: the same timeline gives the same bytes.
package enum TimelineSVG {
    package struct Layout {
        package static let width = 1200, height = 220
        package static let left = 90.0, right = 20.0
        package static var plotWidth: Double { Double(width) - left - right }
        package static let laneTop = 40.0, laneHeight = 14.0, laneGap = 4.0
        package static let issuesTop = 120.0, issuesHeight = 36.0
        package static let axisY = 164.0, legendY = 206.0
        /// Marks get 60% of an issue's share of the width, within these bounds, so fifteen years
        /// of a weekly (780 marks) stay apart and a handful of monthlies stay slim.
        package static let markWidths = 0.5...6.0
    }

    package static let colours: [TimelineBar.Kind: String] = [.active: "#2e7d32", .grace: "#f9a825", .granted: "#1565c0", .refunded: "#c62828"]
    package static let entitledColour = "#2e7d32", notEntitledColour = "#b0b0b0", todayColour = "#d81b60"

    package static func render(_ timeline: AccountTimeline, publicationTitle: String, accountId: String) -> String {
        let scale = Scale(from: timeline.from, to: timeline.to, left: Layout.left, width: Layout.plotWidth)
        var svg = SVGWriter(width: Layout.width, height: Layout.height)
        let heading = "\(publicationTitle): account \(accountId), \(SupportSentence.day(timeline.from)) to \(SupportSentence.day(timeline.to)) (UTC)"
        svg.title(heading)
        svg.element("text", [("x", "8"), ("y", "22"), ("font-size", "14"), ("font-weight", "bold")]) { $0.characters(heading) }
        lanes(timeline, scale, &svg)
        marks(timeline, scale, &svg)
        axis(timeline, scale, &svg)
        today(timeline, scale, &svg)
        legend(&svg)
        return svg.finish()
    }

    package typealias Scale = ChartPieces.Scale

    private static func laneY(_ kind: TimelineBar.Kind) -> Double {
        let index = TimelineBar.Kind.allCases.firstIndex(of: kind) ?? 0
        return Layout.laneTop + Double(index) * (Layout.laneHeight + Layout.laneGap)
    }

    private static func lanes(_ timeline: AccountTimeline, _ scale: Scale, _ svg: inout SVGWriter) {
        for kind in TimelineBar.Kind.allCases {
            let y = laneY(kind)
            svg.element("text", [("x", "8"), ("y", SVGWriter.number(y + Layout.laneHeight - 3))]) { $0.characters(kind.rawValue) }
            svg.element("rect", [("x", SVGWriter.number(Layout.left)), ("y", SVGWriter.number(y)),
                                 ("width", SVGWriter.number(Layout.plotWidth)), ("height", SVGWriter.number(Layout.laneHeight)),
                                 ("fill", "#f4f4f4")])
        }
        for bar in timeline.bars {
            let x0 = scale.x(bar.start), x1 = scale.x(bar.end)
            let until = bar.end == .distantFuture ? "open-ended" : "until \(SupportSentence.day(bar.end))"
            svg.element("rect", [("class", "bar \(bar.kind.rawValue)"), ("x", SVGWriter.number(x0)), ("y", SVGWriter.number(laneY(bar.kind))),
                                 ("width", SVGWriter.number(max(1, x1 - x0))), ("height", SVGWriter.number(Layout.laneHeight)),
                                 ("fill", colours[bar.kind] ?? "#000")]) {
                $0.title("\(bar.kind.rawValue) from \(SupportSentence.day(bar.start)) \(until)")
            }
        }
    }

    private static func marks(_ timeline: AccountTimeline, _ scale: Scale, _ svg: inout SVGWriter) {
        svg.element("text", [("x", "8"), ("y", SVGWriter.number(Layout.issuesTop + Layout.issuesHeight / 2 + 4))]) { $0.characters("issues") }
        let share = Layout.plotWidth / Double(max(1, timeline.marks.count)) * 0.6
        let width = min(Layout.markWidths.upperBound, max(Layout.markWidths.lowerBound, share))
        for mark in timeline.marks {
            let verdict = mark.entitled ? "entitled" : "not entitled"
            let reasons = mark.reasons.map(\.rawValue).joined(separator: ", ")
            svg.element("rect", [("class", mark.entitled ? "issue entitled" : "issue not-entitled"),
                                 ("x", SVGWriter.number(scale.x(mark.publishedAt) - width / 2)), ("y", SVGWriter.number(Layout.issuesTop)),
                                 ("width", SVGWriter.number(width)), ("height", SVGWriter.number(Layout.issuesHeight)),
                                 ("fill", mark.entitled ? entitledColour : notEntitledColour)]) {
                $0.title("\(mark.title) (\(mark.issueId)), \(SupportSentence.day(mark.publishedAt)): \(verdict) (\(reasons))")
            }
        }
    }

    private static func axis(_ timeline: AccountTimeline, _ scale: Scale, _ svg: inout SVGWriter) {
        ChartPieces.timeAxis(scale, y: Layout.axisY, &svg)
    }

    private static func today(_ timeline: AccountTimeline, _ scale: Scale, _ svg: inout SVGWriter) {
        guard timeline.from <= timeline.now, timeline.now < timeline.to else { return }
        let x = SVGWriter.number(scale.x(timeline.now))
        svg.element("line", [("class", "today"), ("x1", x), ("y1", SVGWriter.number(Layout.laneTop - 6)), ("x2", x),
                             ("y2", SVGWriter.number(Layout.axisY)), ("stroke", todayColour), ("stroke-dasharray", "4 3")]) {
            $0.title("today, \(SupportSentence.day(timeline.now))")
        }
    }

    private static func legend(_ svg: inout SVGWriter) {
        let entries = TimelineBar.Kind.allCases.map { ($0.rawValue, colours[$0] ?? "#000") }
            + [("issue entitled", entitledColour), ("issue not entitled", notEntitledColour), ("today", todayColour)]
        ChartPieces.legend(entries, left: Layout.left, y: Layout.legendY, &svg)
    }
}

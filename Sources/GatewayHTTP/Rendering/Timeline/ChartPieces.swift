import Wire

/// What every picture drawn along time shares (the account timeline, the subscribers chart):
/// instants to x over a plot, the time axis under it (`TimeAxis`), and a legend of coloured
/// squares. Pure: the same input gives the same bytes.
package enum ChartPieces {
    /// Instants to x coordinates over a plot `left ..< left + width`, clamped to it.
    package struct Scale {
        package let from: Instant, to: Instant
        package let left: Double, width: Double

        package func x(_ t: Instant) -> Double {
            let span = Double(to.millisecondsSinceEpoch - from.millisecondsSinceEpoch)
            let offset = Double(max(from, min(t, to)).millisecondsSinceEpoch - from.millisecondsSinceEpoch)
            return left + offset / span * width
        }
    }

    /// The axis line at `y` under the plot, its ticks and their labels.
    package static func timeAxis(_ scale: Scale, y: Double, _ svg: inout SVGWriter) {
        svg.element("line", [("x1", SVGWriter.number(scale.left)), ("y1", SVGWriter.number(y)),
                             ("x2", SVGWriter.number(scale.left + scale.width)), ("y2", SVGWriter.number(y)), ("stroke", "#444")])
        for tick in TimeAxis(from: scale.from, to: scale.to).ticks {
            let x = SVGWriter.number(scale.x(tick.at))
            svg.element("line", [("x1", x), ("y1", SVGWriter.number(y)), ("x2", x),
                                 ("y2", SVGWriter.number(y + (tick.label == nil ? 3 : 6))), ("stroke", "#444")])
            if let label = tick.label {
                svg.element("text", [("x", x), ("y", SVGWriter.number(y + 18)), ("text-anchor", "middle")]) { $0.characters(label) }
            }
        }
    }

    /// (label, colour) entries in a row from `left`, their baseline at `y`.
    package static func legend(_ entries: [(String, String)], left: Double, y: Double, _ svg: inout SVGWriter) {
        var x = left
        for (label, colour) in entries {
            svg.element("rect", [("x", SVGWriter.number(x)), ("y", SVGWriter.number(y - 9)), ("width", "10"),
                                 ("height", "10"), ("fill", colour)])
            svg.element("text", [("x", SVGWriter.number(x + 14)), ("y", SVGWriter.number(y))]) { $0.characters(label) }
            x += 14 + Double(label.count) * 6.5 + 18
        }
    }
}

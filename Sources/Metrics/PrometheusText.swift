import Foundation

/// Builds the Prometheus text exposition format (version 0.0.4).
public struct PrometheusText {
    public private(set) var text = ""

    public init() {}

    public mutating func family(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(help.replacingOccurrences(of: "\n", with: " "))\n# TYPE \(name) \(type)\n"
    }

    public mutating func sample(_ name: String, labels: [(String, String)] = [], _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(PrometheusText.escape($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " \(value)\n"
    }

    public mutating func sample(_ name: String, labels: [(String, String)] = [], _ value: Int) {
        sample(name, labels: labels, String(value))
    }

    public mutating func sample(_ name: String, labels: [(String, String)] = [], _ value: Double) {
        sample(name, labels: labels, PrometheusText.format(value))
    }

    /// `_bucket` (cumulative, with `le`), `_sum` and `_count` samples of one histogram series.
    public mutating func histogram(_ name: String, labels: [(String, String)], bounds: [Double], counts: [Int], sum: Double) {
        var cumulative = 0
        for (bound, count) in zip(bounds, counts) {
            cumulative += count
            sample(name + "_bucket", labels: labels + [("le", PrometheusText.format(bound))], cumulative)
        }
        let total = counts.reduce(0, +)
        sample(name + "_bucket", labels: labels + [("le", "+Inf")], total)
        sample(name + "_sum", labels: labels, sum)
        sample(name + "_count", labels: labels, total)
    }

    /// Label values escape backslash, double quote and line feed.
    public static func escape(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        return value.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        return String(value)
    }
}

import Foundation

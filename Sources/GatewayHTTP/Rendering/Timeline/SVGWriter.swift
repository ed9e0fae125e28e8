/// A small append-only SVG (XML 1.0) writer: every text and attribute value it is given is
/// escaped, so editor-supplied titles stay text (never markup); numbers are written with one
/// decimal by integer arithmetic, so the same picture is the same bytes on every machine.
package struct SVGWriter {
    package private(set) var text = ""

    package init(width: Int, height: Int) {
        text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text += #"<svg xmlns="http://www.w3.org/2000/svg" role="img" width="\#(width)" height="\#(height)" viewBox="0 0 \#(width) \#(height)" font-family="sans-serif" font-size="11">"# + "\n"
    }

    /// `<name a="v" …>` then `body`'s children then `</name>`; self-closed without a body.
    package mutating func element(_ name: String, _ attributes: [(String, String)], body: ((inout SVGWriter) -> Void)? = nil) {
        text += "<" + name
        for (key, value) in attributes { text += " \(key)=\"\(Self.escape(value))\"" }
        guard let body else { text += "/>\n"; return }
        text += ">"
        body(&self)
        text += "</\(name)>\n"
    }

    /// Character data, escaped.
    package mutating func characters(_ value: String) { text += Self.escape(value) }

    /// `<title>` (a tooltip on hover) holding `value` as text.
    package mutating func title(_ value: String) { element("title", []) { $0.characters(value) } }

    package mutating func finish() -> String { text += "</svg>\n"; return text }

    /// XML 1.0 §2.4 and §3.3.3: `&`, `<`, `>`, both quotes; control characters XML cannot hold
    /// become a space.
    package static func escape(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { out += " " } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// One decimal, no locale: 12.25 → "12.3", -0.04 → "0".
    package static func number(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}

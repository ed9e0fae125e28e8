import GatewayCore
import HTTPServer

/// A field that is a comma-separated list (RFC 9110 §5.6.1), over all its lines (§5.3): the
/// elements with optional whitespace removed and empty elements dropped.
package enum HeaderList {
    package static func elements(_ request: HTTPRequest, _ name: String) -> [Substring] {
        var elements: [Substring] = []
        for field in request.headers.values(name) {
            for element in field.split(separator: ",", omittingEmptySubsequences: true) {
                let trimmed = element.trimmingOptionalWhitespace()
                if !trimmed.isEmpty { elements.append(trimmed) }
            }
        }
        return elements
    }
}

extension Substring {
    /// Without leading and trailing OWS (SP and HTAB, RFC 9110 §5.6.3).
    package func trimmingOptionalWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

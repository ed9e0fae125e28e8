/// A route's path, split into literal segments and `{name}` parameters.
public struct RoutePattern: Sendable, Equatable {
    public enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    public let text: String
    public let segments: [Segment]

    /// Parses `/v1/publications/{publicationId}`; a pattern must start with `/`, and a parameter
    /// fills a whole segment.
    public init(_ text: String) {
        precondition(text.hasPrefix("/"), "route pattern must start with /: \(text)")
        self.text = text
        segments = RoutePattern.split(text).map { segment in
            if segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            precondition(!segment.contains("{") && !segment.contains("}"), "bad route segment: \(segment)")
            return .literal(String(segment))
        }
    }

    public var hasParameters: Bool {
        segments.contains { if case .parameter = $0 { true } else { false } }
    }

    /// Path segments between slashes; `/` alone has none, a trailing slash gives an empty last one.
    public static func split(_ path: some StringProtocol) -> [Substring] {
        let trimmed = Substring(path).dropFirst()
        return trimmed.isEmpty ? [] : trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }
}

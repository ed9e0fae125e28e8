/// The CDN base (`ISSUE_GATEWAY_CDN_BASE_URL`): an origin, scheme, host and optional port with
/// no path (tokens.md, Configuration), to which encoded asset paths are appended.
public struct EdgeOrigin: Equatable, Sendable {
    /// `https://cdn.example.com` or `http://127.0.0.1:8081`, no trailing `/`.
    public let text: String
    /// The host alone: the default `domain` of cookies.
    public let host: String

    /// Nil unless `base` is `http(s)://host[:port]`, optionally with a trailing `/`, and nothing
    /// else: no user info, path, query or fragment.
    public init?(_ base: String) {
        var rest = Substring(base.hasSuffix("/") ? String(base.dropLast()) : base)
        let scheme: String
        if rest.lowercased().hasPrefix("https://") { scheme = "https" } else if rest.lowercased().hasPrefix("http://") {
            scheme = "http"
        } else {
            return nil
        }
        rest = rest.dropFirst(scheme.count + 3)
        guard !rest.isEmpty, !rest.contains(where: { "/?#@ \\".contains($0) }),
              rest.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else { return nil }
        var host = rest
        if rest.hasPrefix("[") {
            // An IPv6 literal (RFC 3986 §3.2.2), with an optional port after it.
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || Self.isPort(after.dropFirst()) && after.first == ":" else { return nil }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            guard Self.isPort(rest[rest.index(after: colon)...]) else { return nil }
        }
        // A registered name or IPv4 (letters, digits, `-`, `.`) or an IPv6 literal (hex, `:`, `.`
        // in brackets): nothing that would need escaping in a URL, a policy's JSON or a cookie.
        let allowed = host.hasPrefix("[") ? "0123456789abcdefABCDEF:.[]" : "-."
        guard !host.isEmpty, host.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber) && !host.hasPrefix("[")) || allowed.contains($0) })
        else { return nil }
        self.text = scheme + "://" + rest
        self.host = String(host)
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber)
            && (Int(text) ?? 0) <= 65535
    }

    /// `{origin}{encoded path}`.
    public func url(_ path: String) -> String { text + EdgePath.encode(path) }
}

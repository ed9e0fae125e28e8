import Wire
/// A complete, validated request as a handler sees it.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The request-target as sent (origin-form, or absolute-form reduced to its path and query).
    public var target: String
    /// The path part of the target, still percent-encoded.
    public var path: String
    /// The query without its `?`, still percent-encoded; nil when the target has no `?`.
    public var query: String?
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The body, when the route spools it (`RouterBuilder.add(spoolsBody:)`) and it came over a
    /// socket: then `body` is empty.
    public var spooledBody: SpooledBody?
    public var version: HTTPVersion
    /// Values of the route's `{name}` segments, percent-decoded.
    public var pathParameters: [String: String]
    /// The IP address of the connection's peer ("192.0.2.7", "2001:db8::1"), the key of per-client
    /// limits; nil when the request did not come over a socket (an in-process test client).
    public var sourceAddress: String?
    /// The digest of the request's credential, noted by a fast path that computed it and declined,
    /// so the route's handler does not compute it again. Never read from the wire: only code on
    /// the server sets it, from this request's own headers.
    public var credentialDigest: SIMD4<UInt64>?

    public init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                version: HTTPVersion = .http1_1, pathParameters: [String: String] = [:],
                sourceAddress: String? = nil) {
        self.method = method
        self.target = target
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        } else {
            path = target
            query = nil
        }
        self.headers = headers
        self.body = body
        self.version = version
        self.pathParameters = pathParameters
        self.sourceAddress = sourceAddress
    }

    public func header(_ name: String) -> String? { headers[name] }

    /// The query's `name=value` pairs in order, percent-decoded with `+` as a space
    /// (application/x-www-form-urlencoded). A pair that does not decode is left out.
    public func queryParameters() -> [(String, String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(parts[0], plusIsSpace: true) else { return nil }
            let raw = parts.count > 1 ? parts[1] : ""
            guard let value = PercentDecoding.decode(raw, plusIsSpace: true) else { return nil }
            return (name, value)
        }
    }

    /// The first value of query parameter `name`.
    public func queryParameter(_ name: String) -> String? {
        queryParameters().first { $0.0 == name }?.1
    }

    /// Whether the client wants the connection kept open after this request (RFC 9112 §9.3):
    /// HTTP/1.1 unless `close` is among the Connection options, HTTP/1.0 only with `keep-alive`.
    var wantsKeepAlive: Bool {
        var close = false
        var keepAlive = false
        for field in headers.fields where field.name.equalsIgnoringASCIICase("Connection") {
            for option in field.value.split(separator: ",") {
                let option = String(option.trimmingASCIISpaces())
                if option.equalsIgnoringASCIICase("close") { close = true }
                if option.equalsIgnoringASCIICase("keep-alive") { keepAlive = true }
            }
        }
        if close { return false }
        return version == .http1_1 || keepAlive
    }
}

extension Substring {
    func trimmingASCIISpaces() -> Substring {
        var s = self
        while let first = s.first, first == " " || first == "\t" { s.removeFirst() }
        while let last = s.last, last == " " || last == "\t" { s.removeLast() }
        return s
    }
}

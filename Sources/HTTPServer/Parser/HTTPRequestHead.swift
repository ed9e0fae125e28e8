/// A request's line and header fields, validated, before its body.
struct HTTPRequestHead: Sendable {
    enum Framing: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    var method: String
    var target: String
    var version: HTTPVersion
    var headers: HTTPHeaders
    var framing: Framing
    /// `Expect: 100-continue` on an HTTP/1.1 request with a body (RFC 9110 §10.1.1).
    var expectsContinue: Bool
}

/// The parser's size limits (configuration: `HTTPServerConfiguration`).
struct HTTPParserLimits: Sendable {
    var maxRequestLineBytes: Int = 8192
    var maxHeaderBytes: Int = 16384
    var maxHeaderFields: Int = 100
    /// A chunk-size line (size and extensions); longer ones are a 400.
    var maxChunkLineBytes: Int = 4096
    /// Empty lines tolerated before a request line (RFC 9112 §2.2 allows at least one).
    var maxLeadingEmptyLines: Int = 4
    /// Fields a request may carry at most once (`HTTPServerConfiguration.singletonFields`).
    var singletonFields: [String] = HTTPServerConfiguration.standardSingletonFields
}

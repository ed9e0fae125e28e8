/// An answer the server makes on its own, before or instead of a handler: a request it cannot
/// read, no route, a full pool. The application renders it (`HTTPErrorRenderer`) in its own error
/// schema; the server knows none. The server adds `Allow` to a 405 itself (RFC 9110 §15.5.6).
public struct HTTPServerError: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// 400: malformed framing or a path that does not percent-decode.
        case badRequest
        /// 404: no route for the path.
        case notFound
        /// 405: the path exists for other methods.
        case methodNotAllowed
        /// 408: the request did not arrive within the read timeouts.
        case requestTimeout
        /// 413: the body is larger than the route's limit.
        case contentTooLarge
        /// 414: the request line is longer than the limit (RFC 9112 §3).
        case uriTooLong
        /// 431: the header section is too large or has too many fields (RFC 6585 §5).
        case headerFieldsTooLarge
        /// 500: a handler's response could not be sent as it was.
        case invalidResponse
        /// 501: a transfer coding other than chunked (RFC 9112 §6.1).
        case notImplemented
        /// 503: the route's worker pool queue is full, or the server's buffer budget is spent.
        case busy
        /// 503: over the connection limit.
        case tooManyConnections
        /// 505: an HTTP major version other than 1.
        case versionNotSupported
    }

    public var kind: Kind
    /// For people: what went wrong, in one sentence.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var status: Int {
        switch kind {
        case .badRequest: 400
        case .notFound: 404
        case .methodNotAllowed: 405
        case .requestTimeout: 408
        case .contentTooLarge: 413
        case .uriTooLong: 414
        case .headerFieldsTooLarge: 431
        case .invalidResponse: 500
        case .notImplemented: 501
        case .busy, .tooManyConnections: 503
        case .versionNotSupported: 505
        }
    }

    /// 413 for a body over `limit` bytes.
    public static func contentTooLarge(limit: Int) -> HTTPServerError {
        HTTPServerError(.contentTooLarge, "The request body is larger than \(limit) bytes.")
    }

    /// 500 for a handler response whose header fields cannot be sent (`HTTPResponse.isSendable`).
    public static let invalidResponse = HTTPServerError(.invalidResponse, "The response had an invalid header.")

    /// The renderer a router uses when the application gives none: the message as plain text.
    /// A busy answer's `Retry-After` is the serializer's to add (it adds the fallback to every 429
    /// and 503 without one), so no renderer needs to.
    public static let plainText: HTTPErrorRenderer = { error in
        HTTPResponse.text(error.status, error.message + "\n")
    }
}

/// Turns the server's own answers into the application's error schema.
public typealias HTTPErrorRenderer = @Sendable (HTTPServerError) -> HTTPResponse

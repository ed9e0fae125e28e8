/// Why a request could not be read. Every case is answered with its status and the connection is
/// closed afterwards: after a framing error the next request's start cannot be trusted (RFC 9112 §11.2).
enum HTTPParseError: Error, Equatable, Sendable {
    case badRequest(String)
    /// The request line is longer than the limit (414).
    case requestLineTooLong
    /// The header section (or the trailer section) is larger than the limit or has too many fields (431).
    case headerFieldsTooLarge(String)
    /// The body is larger than the route's limit (413).
    case contentTooLarge(limit: Int)
    /// A transfer coding other than chunked (501, RFC 9112 §6.1).
    case notImplemented(String)
    /// An HTTP major version other than 1 (505).
    case versionNotSupported

    var status: Int { serverError.status }

    var message: String {
        switch self {
        case .badRequest(let why): why
        case .requestLineTooLong: "The request line is too long."
        case .headerFieldsTooLarge(let why): why
        case .contentTooLarge(let limit): HTTPServerError.contentTooLarge(limit: limit).message
        case .notImplemented(let why): why
        case .versionNotSupported: "Only HTTP/1.0 and HTTP/1.1 are supported."
        }
    }

    /// The answer, for the application's error renderer.
    var serverError: HTTPServerError {
        let kind: HTTPServerError.Kind = switch self {
        case .badRequest: .badRequest
        case .requestLineTooLong: .uriTooLong
        case .headerFieldsTooLarge: .headerFieldsTooLarge
        case .contentTooLarge: .contentTooLarge
        case .notImplemented: .notImplemented
        case .versionNotSupported: .versionNotSupported
        }
        return HTTPServerError(kind, message)
    }
}

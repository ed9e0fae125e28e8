import Foundation

/// One HTTP request as the client sends it: the method, the absolute URL, the header fields and
/// the body.
///
/// The client builds these; an ``HTTPTransport`` only carries them. Tests compare them to check
/// the shape of every call.
public struct HTTPRequest: Sendable, Equatable {
    /// The method, upper case (`GET`, `POST`, `PUT`, `DELETE`).
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields by name, as sent.
    public var headers: [String: String]
    /// The body, or `nil` for none.
    public var body: Data?

    /// Makes a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of a header field, its name compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// One HTTP response as a transport received it, its body already decoded from any content
/// coding (gzip).
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields, names in lower case.
    public var headers: [String: String]
    /// The body (empty for none).
    public var body: Data

    /// Makes a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of a header field, its name compared without regard to case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What carries the client's requests: ``URLSessionTransport`` by default; tests script one.
///
/// A transport throws only when no answer arrived (no connection, a timeout, cancellation); any
/// answer, whatever its status, is returned.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the answer, its body decoded from gzip when it was sent so.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Sends a `GET` for a file and, on a 2xx answer, leaves its body at `destination`
    /// (replacing any file there). The answer's `body` is then empty; on any other status it
    /// holds what the server sent and nothing is written.
    func download(_ request: HTTPRequest, to destination: URL) async throws -> HTTPResponse
}

extension HTTPTransport {
    /// Downloads through ``send(_:)``, holding the whole file in memory once: right for tests and
    /// small files; ``URLSessionTransport`` streams to disk instead.
    public func download(_ request: HTTPRequest, to destination: URL) async throws -> HTTPResponse {
        var response = try await send(request)
        guard (200..<300).contains(response.status) else { return response }
        try response.body.write(to: destination, options: .atomic)
        response.body = Data()
        return response
    }
}

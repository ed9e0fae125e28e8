import Wire

/// A response as a handler returns it. Content-Length, Date and Connection are added by the server;
/// a handler that sets them has its values replaced.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static let noContent = HTTPResponse(status: 204)

    /// A JSON body with `Content-Type: application/json` (http-api.md, Conventions).
    public static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }

    /// A JSON body rendered by `render`.
    public static func json(_ status: Int, _ render: (inout JSONWriter) -> Void) -> HTTPResponse {
        var writer = JSONWriter()
        render(&writer)
        return json(status, writer.bytes)
    }

    /// Plain text, e.g. the Prometheus exposition.
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.equalsIgnoringASCIICase(name) }?.1
    }
}

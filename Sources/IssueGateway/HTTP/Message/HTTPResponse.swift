import Wire

/// A response as a handler returns it. Content-Length, Date and Connection are added by the server;
/// a handler that sets them has its values replaced.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    static let noContent = HTTPResponse(status: 204)

    /// A JSON body with `Content-Type: application/json` (http-api.md, Conventions).
    static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }

    /// A JSON body rendered by `render`.
    static func json(_ status: Int, _ render: (inout JSONWriter) -> Void) -> HTTPResponse {
        var writer = JSONWriter()
        render(&writer)
        return json(status, writer.bytes)
    }

    /// The spec's error shape: `{"error":{"code":…,"message":…, …extra}}` (http-api.md, Conventions).
    static func error(_ status: Int, code: String, message: String,
                      extra: [(String, JSONScalar)] = []) -> HTTPResponse {
        json(status) { w in
            w.object { w in
                w.key("error")
                w.object { w in
                    w.field("code", code)
                    w.field("message", message)
                    for (name, value) in extra {
                        w.key(name)
                        w.value(value)
                    }
                }
            }
        }
    }

    /// Plain text, e.g. the Prometheus exposition.
    static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0.equalsIgnoringASCIICase(name) }?.1
    }
}

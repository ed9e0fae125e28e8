import GatewayCore
import HTTPServer
import Wire

extension HTTPResponse {
    /// The spec's error shape: `{"error":{"code":…,"message":…, …extra}}` (http-api.md, Conventions).
    package static func error(_ status: Int, code: String, message: String,
                      extra: [(String, JSONScalar)] = [], structured: [(String, JSONValue)] = []) -> HTTPResponse {
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
                    for (name, value) in structured {
                        w.key(name)
                        w.rawValue(value.serializedBytes)
                    }
                }
            }
        }
    }
}

extension HTTPServerError {
    /// The HTTP server's own answers (framing, limits, no route, busy) in the spec's error shape;
    /// the server adds a busy one's `Retry-After` (RFC 9110 §10.2.3) as it is sent.
    package static let apiShape: HTTPErrorRenderer = { error in
        HTTPResponse.error(error.status, code: error.code, message: error.message)
    }

    /// The snake_case code of http-api.md, Conventions.
    package var code: String {
        switch kind {
        case .badRequest: "bad_request"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .requestTimeout: "request_timeout"
        case .contentTooLarge: "payload_too_large"
        case .uriTooLong: "uri_too_long"
        case .headerFieldsTooLarge: "header_fields_too_large"
        case .invalidResponse: "internal_error"
        case .notImplemented: "not_implemented"
        case .busy, .tooManyConnections: "service_unavailable"
        case .versionNotSupported: "http_version_not_supported"
        }
    }
}

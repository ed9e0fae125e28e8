import GatewayCore
import HTTPServer

extension APIError {
    /// The error as an answer in the spec's shape, with its header fields. Every 429 and 503
    /// carries `Retry-After` (http-api.md): the wait the error names, else the fallback, clamped
    /// here so that no error path can forget it or send a wait out of range.
    package var response: HTTPResponse {
        var response = HTTPResponse.error(status, code: code, message: message, extra: extra)
        response.headers += headers
        return response.withRetryAfter()
    }
}

import GatewayCore
import HTTPServer

extension APIError {
    /// The error as an answer in the spec's shape, with its header fields (`Retry-After`).
    package var response: HTTPResponse {
        var response = HTTPResponse.error(status, code: code, message: message, extra: extra)
        response.headers += headers
        return response
    }
}

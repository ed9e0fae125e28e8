import Foundation
import OutboundHTTP
import Wire

/// What one answer of Google's leads to: the client's loop is a state machine over these, so
/// retries are tested without a network (like the App Store's `ServerAPIStep`).
public enum GooglePlayStep: Equatable, Sendable {
    case success(Data)
    /// 401: the access token was refused; fetch a fresh one and try once more.
    case refreshToken
    /// 408, 429, 5xx or no answer: worth another try, after the wait Google named (its
    /// `Retry-After`, read by the client against its clock) when it named one.
    case retry(String, retryAfter: String? = nil)
    case failure(GooglePlayError)

    /// Google's error bodies are small; a larger one is not read for its reason.
    static let errorBodyBytes = 64 * 1024

    public init(answer: HTTPExchangeResult) {
        let status = answer.statusCode
        if (200...299).contains(status) { self = .success(answer.body); return }
        let (reason, message) = Self.reason(answer.body)
        switch status {
        case 401: self = .refreshToken
        case 403: self = .failure(.unauthorized(reason ?? "HTTP 403"))
        case 404: self = .failure(.notFound)
        case 410: self = .failure(.gone)
        // googleplay.md: Google also answers an unknown token with a 400 naming it invalid.
        case 400 where reason == "purchaseTokenInvalid" || (reason == "invalid" && message.lowercased().contains("token")):
            self = .failure(.notFound)
        case 408, 429, 500...599: self = .retry("HTTP \(status)", retryAfter: answer.headers["retry-after"])
        default: self = .failure(.rejected(httpStatus: status, reason: reason))
        }
    }

    /// `error.errors[0].reason` (or `error.status`) and `error.message` of Google's JSON error.
    static func reason(_ body: Data) -> (reason: String?, message: String) {
        guard !body.isEmpty, body.count <= errorBodyBytes,
              let error = (try? JSONParser(limits: JSONLimits(maxBytes: errorBodyBytes, maxDepth: 8)).parse(bytes: Array(body)))?
                .objectValue?["error"]?.objectValue else { return (nil, "") }
        let first = error["errors"]?.arrayValue?.first?.objectValue?["reason"]?.stringValue
        return (first ?? error["status"]?.stringValue, error["message"]?.stringValue ?? "")
    }
}

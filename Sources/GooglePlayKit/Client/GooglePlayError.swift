/// Why a call to Google gave no answer the gateway can use (googleplay.md "Decisions where Google
/// is silent": 404 `purchase_not_found`, 410 `purchase_expired`, 503 `store_unavailable`).
public enum GooglePlayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Google does not know the token or order (404, or 400 naming the token invalid).
    case notFound
    /// Google no longer keeps the purchase (410 `purchaseTokenNoLongerValid`, 60 days after expiry).
    case gone
    /// Google refused the service account (401 after a fresh token, 403): only an operator can
    /// fix the key or its permissions.
    case unauthorized(String)
    /// Another refusal for good: Google's status and reason.
    case rejected(httpStatus: Int, reason: String?)
    /// Retries and the deadline ran out (429, 5xx, network); the last reason.
    case unavailable(String)
    case malformedResponse(String)
    /// libcrypto could not sign the assertion.
    case signing

    public var description: String {
        switch self {
        case .notFound: "Google does not know this purchase"
        case .gone: "Google no longer keeps this purchase"
        case .unauthorized(let why): "Google refused the service account: \(why)"
        case .rejected(let status, let reason): "Google refused the call (HTTP \(status)\(reason.map { ", \($0)" } ?? ""))"
        case .unavailable(let why): "Google could not be asked: \(why)"
        case .malformedResponse(let why): "Google's answer could not be read: \(why)"
        case .signing: "the service account's assertion could not be signed"
        }
    }
}

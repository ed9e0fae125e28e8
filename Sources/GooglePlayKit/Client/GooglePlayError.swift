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
    /// The token endpoint refused the service account's assertion (a key Google does not know, a
    /// clock far off): no call reached the API, so it says nothing of what the API would answer.
    case tokenRefused(String)
    /// Another refusal for good: Google's status and reason.
    case rejected(httpStatus: Int, reason: String?)
    /// Retries and the deadline ran out (429, 5xx, network); the last reason, and the wait in
    /// seconds Google's last answer named (`Retry-After`), passed on to the gateway's caller.
    case unavailable(String, retryAfterSeconds: Int? = nil)
    case malformedResponse(String)
    /// libcrypto could not sign the assertion.
    case signing

    /// E25: Google answered, and the answer is no (the service account lacks a permission, the call
    /// or an order is refused or unknown), as opposed to no usable answer (Google unreachable or
    /// throttling, a malformed answer, an assertion not signed). When the Orders API refuses, periods
    /// are built from the subscription snapshots; when it gives no answer the call still fails
    /// (503), so nothing is lost. A 403 naming a quota or rate limit is throttling, not a refusal.
    public var isRefusal: Bool {
        switch self {
        case .notFound, .gone: true
        case .unauthorized(let reason): !Self.throttlingReasons.contains(reason)
        case .rejected(let status, let reason): (400..<500).contains(status) && !Self.throttlingReasons.contains(reason ?? "")
        case .tokenRefused, .unavailable, .malformedResponse, .signing: false
        }
    }

    /// The wait Google asked for before it is asked again, when it named one.
    public var retryAfterSeconds: Int? {
        if case .unavailable(_, let seconds) = self { seconds } else { nil }
    }

    /// Google's reasons for a 403 that says "not now" rather than "not you".
    static let throttlingReasons: Set<String> = [
        "rateLimitExceeded", "userRateLimitExceeded", "dailyLimitExceeded", "quotaExceeded", "RESOURCE_EXHAUSTED",
    ]

    public var description: String {
        switch self {
        case .notFound: "Google does not know this purchase"
        case .gone: "Google no longer keeps this purchase"
        case .unauthorized(let why): "Google refused the service account: \(why)"
        case .tokenRefused(let why): "Google's token endpoint refused the service account: \(why)"
        case .rejected(let status, let reason): "Google refused the call (HTTP \(status)\(reason.map { ", \($0)" } ?? ""))"
        case .unavailable(let why, _): "Google could not be asked: \(why)"
        case .malformedResponse(let why): "Google's answer could not be read: \(why)"
        case .signing: "the service account's assertion could not be signed"
        }
    }
}

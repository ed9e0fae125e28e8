import Foundation
import OutboundHTTP
import Synchronization
import Wire

/// The service account's access token, fetched with an RS256 assertion from the key's `token_uri`
/// and kept until shortly before it expires (googleplay.md "Calling Google"). Shared by every
/// call; two callers finding it stale may both fetch (both tokens are valid), never wait on each
/// other.
final class AccessTokens: Sendable {
    private struct Cached: Sendable { var token: String; var usableUntil: Instant }

    private let key: ServiceAccountKey
    private let scope: String
    private let refreshMargin: TimeInterval
    private let cached = Mutex<Cached?>(nil)

    /// `{access_token, expires_in, token_type}` is a few hundred bytes.
    static let maximumAnswerBytes = 64 * 1024

    init(key: ServiceAccountKey, refreshMargin: TimeInterval, scope: String = OAuthAssertion.androidPublisherScope) {
        self.key = key; self.refreshMargin = refreshMargin; self.scope = scope
    }

    func forget() { cached.withLock { $0 = nil } }

    /// The kept token while it is usable at `now`, else nil.
    func current(at now: Instant) -> String? {
        cached.withLock { cached in
            guard let cached, now < cached.usableUntil else { return nil }
            return cached.token
        }
    }

    /// One exchange with the token endpoint: the step the client's loop takes, and the token kept
    /// on success.
    func fetch(at now: Instant, transport: any HTTPTransport, timeout: TimeInterval) -> Result<String, TokenFailure> {
        guard let assertion = OAuthAssertion.make(key, issuedAt: now, scope: scope) else { return .failure(.final(.signing)) }
        let answer: HTTPExchangeResult
        do {
            answer = try transport.send(method: "POST", url: key.tokenURI,
                                        headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                        body: OAuthAssertion.formBody(assertion: assertion), timeout: timeout,
                                        maximumResponseBytes: Self.maximumAnswerBytes)
        } catch {
            return .failure(.retryable("the token endpoint: \(error)"))
        }
        switch answer.statusCode {
        case 200...299: break
        // A timeout, throttling or Google's own failure passes: asked again within the deadline.
        // Its `Retry-After` travels with it, as an API answer's does (RFC 9110 §10.2.3).
        case 408, 429, 500...599:
            return .failure(.retryable("the token endpoint answered HTTP \(answer.statusCode)",
                                       retryAfter: answer.headers["retry-after"]))
        default:
            let reason = (try? PlayFields.parse(answer.body, limit: Self.maximumAnswerBytes).string("error")) ?? nil
            return .failure(.final(.tokenRefused("the token endpoint answered HTTP \(answer.statusCode)\(reason.map { " (\($0))" } ?? "")")))
        }
        do {
            let fields = try PlayFields.parse(answer.body, limit: Self.maximumAnswerBytes)
            let token = try fields.requiredString("access_token")
            let lifetime = try fields.integerOrDigits("expires_in") ?? 3600
            let usable = now.adding(milliseconds: max(0, (lifetime - Int64(refreshMargin))) * 1000)
            cached.withLock { $0 = Cached(token: token, usableUntil: usable) }
            return .success(token)
        } catch {
            return .failure(.final(.malformedResponse("the token endpoint: \(error)")))
        }
    }

    enum TokenFailure: Error { case retryable(String, retryAfter: String? = nil), final(GooglePlayError) }
}

import OpenIDConnect
import Wire

/// One event of Sign in with Apple's server-to-server notifications (readers.md): what happened
/// to the identity `(apple, subject)`.
package enum AppleServerEvent: Sendable, Equatable {
    case consentRevoked(subject: String)
    /// `account-delete`, also spelled `account-deleted`.
    case accountDeleted(subject: String)
    case emailDisabled(subject: String)
    case emailEnabled(subject: String, email: String?)
    /// A type this gateway does not act on: taken, changing nothing.
    case other(type: String, subject: String)

    package var subject: String {
        switch self {
        case .consentRevoked(let s), .accountDeleted(let s), .emailDisabled(let s), .emailEnabled(let s, _), .other(_, let s): s
        }
    }
}

/// `POST /v1/signinwithapple/notifications`' payload: a JWS verified as an ID token of the
/// provider `apple` (its keys, issuer and client ids; no nonce; `iat` within 1 day; `exp`, when
/// present, after now), whose `events` claim (a JSON string or an object) names the event.
package struct AppleServerEvents: Sendable {
    package static let provider = "apple"
    let providers: OpenIDProviders

    package init(providers: OpenIDProviders) { self.providers = providers }

    package var isConfigured: Bool { providers.providers[Self.provider] != nil }

    package func appleServerEvent(payload: String, now: Instant) throws(GatewayError) -> AppleServerEvent {
        guard isConfigured else { throw .notConfigured("Sign in with Apple is not configured (ISSUE_GATEWAY_IDENTITY_PROVIDERS)") }
        let claims: IDTokenClaims
        do { claims = try providers.verify(payload, provider: Self.provider, checks: .serverNotification, nonce: nil, now: now) } catch {
            switch error {
            case .refused(let refusal): throw .invalidIDToken(reason: refusal.rawValue)
            case .keysUnavailable:
                throw .providerUnavailable(retryAfterSeconds: ProviderIdentityVerifier.providerRetryAfterSeconds)
            }
        }
        let events: JSONObject?
        switch claims.claims["events"] {
        case .object(let object): events = object
        case .string(let text): events = try? JSONParser(limits: JSONLimits(maxBytes: 8192, maxDepth: 4)).parse(text).objectValue
        default: events = nil
        }
        guard let events, let type = events["type"]?.stringValue, let sub = events["sub"]?.stringValue, !sub.isEmpty,
              sub.count <= IDTokenClaims.maximumSubjectLength else { throw .invalidIDToken(reason: IDTokenRefusal.malformed.rawValue) }
        switch type {
        case "consent-revoked": return .consentRevoked(subject: sub)
        case "account-delete", "account-deleted": return .accountDeleted(subject: sub)
        case "email-disabled": return .emailDisabled(subject: sub)
        case "email-enabled": return .emailEnabled(subject: sub, email: events["email"]?.stringValue)
        default: return .other(type: type, subject: sub)
        }
    }
}

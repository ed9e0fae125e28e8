import Foundation
import OutboundHTTP
import Wire

/// Why an ID token was not taken: refused for a reason, or its provider's keys could not be
/// fetched (no retry of the token helps the first, a later one may pass the second).
public enum IDTokenFailure: Error, Equatable, Sendable {
    case refused(IDTokenRefusal)
    case keysUnavailable(String)
}

/// The configured providers, each with its JWKS kept: the one place an ID token is verified
/// (OpenID Connect Core §3.1.3.7, readers.md E31 steps 1–4 and 6, and step 5's comparison of the
/// `nonce` claim with the nonce the caller says was issued). No store and no clock: `now` is given.
public final class OpenIDProviders: Sendable {
    public let providers: [String: IdentityProvider]
    private let keys: [String: KeptKeySet]

    public init(_ providers: [IdentityProvider], transport: any HTTPTransport = URLSessionExchange()) {
        var byId: [String: IdentityProvider] = [:], keys: [String: KeptKeySet] = [:]
        for provider in providers {
            byId[provider.id] = provider
            keys[provider.id] = KeptKeySet(url: provider.jwksURL, transport: transport)
        }
        self.providers = byId; self.keys = keys
    }

    public var isEmpty: Bool { providers.isEmpty }

    public func verify(_ token: String, provider id: String, checks: IDTokenChecks, nonce: String?,
                       now: Instant) throws(IDTokenFailure) -> IDTokenClaims {
        guard let provider = providers[id], let keys = keys[id] else { throw .refused(.provider) }
        let jwt: SignedJWT
        do { jwt = try SignedJWT.verify(token, algorithms: provider.algorithms, keys: keys, now: now) } catch {
            switch error {
            case .malformed: throw .refused(.malformed)
            case .algorithm: throw .refused(.algorithm)
            case .unknownKey: throw .refused(.unknownKey)
            case .signature: throw .refused(.signature)
            case .keysUnavailable(let why): throw .keysUnavailable(why)
            }
        }
        do { return try IDTokenClaims.check(jwt.claims, provider: provider, checks: checks, nonce: nonce, now: now) } catch {
            throw .refused(error)
        }
    }
}

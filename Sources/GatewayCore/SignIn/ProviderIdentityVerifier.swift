import GatewayStore
import OpenIDConnect
import Wire

/// `IdentityVerifying` over the configured OpenID Connect providers (readers.md E31): the token
/// verified by `OpenIDProviders`, the nonce checked against those the gateway issued, every
/// refusal using the nonce up and counted for the client address.
package final class ProviderIdentityVerifier: IdentityVerifying {
    /// The wait asked of a client while a provider's keys cannot be fetched: the key set is tried
    /// again at most this often (`KeptKeySet.minimumRefetchSeconds`).
    package static let providerRetryAfterSeconds = Int(KeptKeySet.minimumRefetchSeconds)

    let providers: OpenIDProviders
    let store: any GatewayStore
    package let failures: SignInFailures

    package init(providers: OpenIDProviders, store: any GatewayStore, failures: SignInFailures = SignInFailures()) {
        self.providers = providers; self.store = store; self.failures = failures
    }

    package var isConfigured: Bool { !providers.isEmpty }

    package func admit(clientAddress: String?, now: Instant) throws(GatewayError) {
        try failures.admit(clientAddress, now: now)
    }

    package func verify(provider: String, idToken: String, nonce: String, clientAddress: String?,
                        now: Instant) throws(GatewayError) -> VerifiedIdentity {
        guard isConfigured else { throw .notConfigured("no identity provider is configured (ISSUE_GATEWAY_IDENTITY_PROVIDERS)") }
        let hash = SignInNonce.hash(nonce)
        /// E31: whatever the outcome, the first request presenting a nonce uses it up.
        func refuse(_ refusal: IDTokenRefusal) -> GatewayError {
            if let hash { _ = try? store.useSignInNonce(hash: hash, now: now) }
            failures.idTokens.record(SignInFailures.key(clientAddress), now: now)
            return .invalidIDToken(reason: refusal.rawValue)
        }
        let claims: IDTokenClaims
        do { claims = try providers.verify(idToken, provider: provider, checks: .signIn, nonce: nonce, now: now) } catch {
            switch error {
            case .refused(let refusal): throw refuse(refusal)
            case .keysUnavailable: throw .providerUnavailable(retryAfterSeconds: Self.providerRetryAfterSeconds)
            }
        }
        guard let hash, try stored({ () throws(StoreError) in try store.signInNonceIsLive(hash: hash, now: now) }) else {
            throw refuse(.nonce)
        }
        return VerifiedIdentity(provider: provider, subject: claims.subject, email: claims.email, emailVerified: claims.emailVerified,
                                isPrivateEmail: claims.isPrivateEmail, realUserStatus: claims.realUserStatus)
    }

    package func useNonce(_ nonce: String, in tx: any WriteTransaction, now: Instant) throws(StoreError) -> Bool {
        guard let hash = SignInNonce.hash(nonce) else { return false }
        return try tx.useSignInNonce(hash: hash, now: now)
    }

    package func recordLinkCodeFailure(clientAddress: String?, now: Instant) {
        failures.linkCodes.record(SignInFailures.key(clientAddress), now: now)
    }
}

import GatewayCrypto
import GatewayStore
import Wire

/// `POST /v1/sessions/nonces` (readers.md E31, Decisions): anyone may ask; each nonce is stored
/// only as its hash and lives 10 minutes. Without providers there is nothing to sign in with.
package struct SignInNonces: Sendable {
    let store: any GatewayStore
    let random: any RandomBytesSource
    let isConfigured: Bool

    package init(store: any GatewayStore, random: any RandomBytesSource, isConfigured: Bool) {
        self.store = store; self.random = random; self.isConfigured = isConfigured
    }

    package func issue(now: Instant) throws(GatewayError) -> SignInNonce {
        guard isConfigured else { throw .notConfigured("no identity provider is configured (ISSUE_GATEWAY_IDENTITY_PROVIDERS)") }
        let nonce: String
        do { nonce = try SecretGenerator.generate(using: random) } catch { throw .failed("no randomness for a nonce") }
        guard let hash = SignInNonce.hash(nonce) else { throw .failed("a nonce could not be hashed") }
        let issued = SignInNonce(nonce: nonce, expiresAt: now.adding(seconds: SignInNonce.lifetimeSeconds))
        try stored { () throws(StoreError) in try store.issueSignInNonce(hash: hash, expiresAt: issued.expiresAt, now: now) }
        return issued
    }
}

import GatewayCore
import GatewayStore
import Synchronization
import Wire

/// A stand-in for the configured identity providers (E31), scripted by the test: it issues
/// nonces, knows which ID tokens prove which identity, and counts failures per client address as
/// the real verifier does (10 in 15 minutes, ID tokens and link codes apart). A scripted token
/// passes only with a nonce issued and not used.
package final class ScriptedIdentityVerifier: IdentityVerifying {
    private struct State {
        var tokens: [String: VerifiedIdentity] = [:]
        var issued: Set<String> = []
        var used: Set<String> = []
        var nextNonce = 0
        var nonceUses = 0
    }

    private let state = Mutex(State())
    private let tokenFailures = FailureWindow<String>(limit: 10, windowSeconds: 15 * 60)
    private let codeFailures = FailureWindow<String>(limit: 10, windowSeconds: 15 * 60)
    package let isConfigured: Bool

    package init(configured: Bool = true) { isConfigured = configured }

    /// `token` proves `identity` from now on.
    package func script(_ token: String, _ identity: VerifiedIdentity) {
        state.withLock { $0.tokens[token] = identity }
    }

    /// A nonce as `POST /v1/sessions/nonces` would issue it.
    package func issueNonce() -> String {
        state.withLock { state in
            state.nextNonce += 1
            let nonce = "nonce-\(state.nextNonce)"
            state.issued.insert(nonce)
            return nonce
        }
    }

    package func isUsed(_ nonce: String) -> Bool { state.withLock { $0.used.contains(nonce) } }

    package func admit(clientAddress: String?, now: Instant) throws(GatewayError) {
        guard let clientAddress else { return }
        if let seconds = tokenFailures.retryAfter(clientAddress, now: now) ?? codeFailures.retryAfter(clientAddress, now: now) {
            throw .rateLimited(retryAfterSeconds: seconds)
        }
    }

    package func verify(provider: String, idToken: String, nonce: String, clientAddress: String?,
                        now: Instant) throws(GatewayError) -> VerifiedIdentity {
        let found: VerifiedIdentity? = state.withLock { state in
            guard let identity = state.tokens[idToken], identity.provider == provider, state.issued.contains(nonce),
                  !state.used.contains(nonce) else {
                state.used.insert(nonce)
                return nil
            }
            return identity
        }
        guard let found else {
            if let clientAddress { tokenFailures.record(clientAddress, now: now) }
            throw .invalidIDToken(reason: "nonce")
        }
        return found
    }

    package func useNonce(_ nonce: String, in tx: any WriteTransaction, now: Instant) throws(StoreError) -> Bool {
        state.withLock { state in
            guard state.issued.contains(nonce), state.used.insert(nonce).inserted else { return false }
            return true
        }
    }

    package func recordLinkCodeFailure(clientAddress: String?, now: Instant) {
        if let clientAddress { codeFailures.record(clientAddress, now: now) }
    }
}

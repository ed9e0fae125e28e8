import GatewayStore
import Wire

/// The identity verifier without identity providers (readers.md, Configuration): sign-in with an
/// ID token and identities answer `not_configured`, while link codes still work and their
/// failures are still counted and limited per client address (E33: as E31's failures are).
package struct UnconfiguredIdentityVerifier: IdentityVerifying {
    private let linkCodeFailures: FailureWindow<String>

    /// E31/E33: 10 failures of one client address in 15 minutes.
    package static let failureLimit = 10
    package static let failureWindowSeconds = 15 * 60

    package init(linkCodeFailures: FailureWindow<String> = FailureWindow(limit: failureLimit,
                                                                          windowSeconds: failureWindowSeconds)) {
        self.linkCodeFailures = linkCodeFailures
    }

    package var isConfigured: Bool { false }

    package func admit(clientAddress: String?, now: Instant) throws(GatewayError) {
        guard let clientAddress, let seconds = linkCodeFailures.retryAfter(clientAddress, now: now) else { return }
        throw .rateLimited(retryAfterSeconds: seconds)
    }

    package func verify(provider: String, idToken: String, nonce: String, clientAddress: String?,
                        now: Instant) throws(GatewayError) -> VerifiedIdentity {
        throw .notConfigured("no identity providers are configured (ISSUE_GATEWAY_IDENTITY_PROVIDERS)")
    }

    package func useNonce(_ nonce: String, in tx: any WriteTransaction, now: Instant) throws(StoreError) -> Bool { false }

    package func recordLinkCodeFailure(clientAddress: String?, now: Instant) {
        guard let clientAddress else { return }
        linkCodeFailures.record(clientAddress, now: now)
    }
}

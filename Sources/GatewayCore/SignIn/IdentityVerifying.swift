import GatewayStore
import Wire

/// An identity an ID token proved (readers.md, E31): the configured provider's id and the token's
/// `sub`, with the claims support may read. Nothing else of the token is kept.
package struct VerifiedIdentity: Sendable, Equatable {
    package var provider: String
    package var subject: String
    package var email: String?
    package var emailVerified: Bool?
    package var isPrivateEmail: Bool?
    /// Sign in with Apple's `real_user_status`, as given.
    package var realUserStatus: Int?

    package init(provider: String, subject: String, email: String? = nil, emailVerified: Bool? = nil,
                 isPrivateEmail: Bool? = nil, realUserStatus: Int? = nil) {
        self.provider = provider; self.subject = subject; self.email = email
        self.emailVerified = emailVerified; self.isPrivateEmail = isPrivateEmail; self.realUserStatus = realUserStatus
    }
}

/// E31: what a sign-in asks of the configured identity providers. The sign-in use case admits the
/// client, verifies the token, and uses the nonce up inside its own unit of work, so that a refusal
/// made there (E34's `device_limit`) leaves the nonce unused.
package protocol IdentityVerifying: Sendable {
    /// False without providers: sign-in with an ID token, nonces and identities answer `not_configured`.
    var isConfigured: Bool { get }

    /// E31: `rateLimited` while the client address holds 10 failures (ID tokens or link codes,
    /// counted apart) of the last 15 minutes.
    func admit(clientAddress: String?, now: Instant) throws(GatewayError)

    /// E31 steps 1–6 with the nonce checked as issued, unexpired and unused, but not used up when
    /// the token passes. A failure uses the nonce up, counts one failure for the address and throws
    /// `invalidIDToken(reason:)`; a key set that cannot be fetched throws `providerUnavailable`.
    func verify(provider: String, idToken: String, nonce: String, clientAddress: String?,
                now: Instant) throws(GatewayError) -> VerifiedIdentity

    /// Uses the nonce up inside the caller's unit of work: false when it is not (or no longer) an
    /// issued, unexpired, unused nonce (E31 step 5: used up by the first request presenting it).
    func useNonce(_ nonce: String, in tx: any WriteTransaction, now: Instant) throws(StoreError) -> Bool

    /// E33: an unknown, used or expired link code counts one failure for the address.
    func recordLinkCodeFailure(clientAddress: String?, now: Instant)
}

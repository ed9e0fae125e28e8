/// What serves readers: their accounts, what they may read now, their devices, the grants and
/// codes that give them access, their print subscriptions' claims, and how they sign in
/// (readers.md: sessions, link codes, identities, merges).
package struct ReaderServices: Sendable {
    package let accounts: ReaderAccounts
    package let entitlements: EntitlementsNow
    package let devices: Devices
    package let grants: Grants
    package let codes: AccessCodes
    /// E35: deletion and export.
    package let deletions: AccountDeletions
    /// E31: ID tokens of the configured providers and failure counts; without providers its
    /// `isConfigured` is false (ID-token sign-in answers `not_configured`).
    package let identityVerifier: any IdentityVerifying
    package let nonces: SignInNonces
    /// Sign in with Apple's server notifications, verified as the provider `apple`'s tokens.
    package let appleServerEvents: AppleServerEvents
    package let sessionPolicy: SessionPolicy
    package let sessions: ReaderSessions
    package let signIn: SignIn
    package let linkCodes: LinkCodes
    package let identities: ReaderIdentities
    package let appleEvents: AppleIdentityEvents
}

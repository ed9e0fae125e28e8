/// What serves readers: their accounts, what they may read now, their devices, the grants and
/// codes that give them access, their print subscriptions' claims, and how they sign in
/// (readers.md: sessions, link codes, identities, merges).
package struct ReaderServices: Sendable {
    package let accounts: ReaderAccounts
    package let entitlements: EntitlementsNow
    package let devices: Devices
    package let grants: Grants
    package let codes: AccessCodes
    /// E31: the configured identity providers' verification; without providers, one whose
    /// `isConfigured` is false (ID-token sign-in answers `not_configured`).
    package let identityVerifier: any IdentityVerifying
    package let sessionPolicy: SessionPolicy
    package let sessions: ReaderSessions
    package let signIn: SignIn
    package let linkCodes: LinkCodes
    package let identities: ReaderIdentities
    package let appleEvents: AppleIdentityEvents
}

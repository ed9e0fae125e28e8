/// What serves readers: their accounts, what they may read now, their devices, the grants and
/// codes that give them access, and their print subscriptions' claims.
package struct ReaderServices: Sendable {
    package let accounts: ReaderAccounts
    package let entitlements: EntitlementsNow
    package let devices: Devices
    package let grants: Grants
    package let codes: AccessCodes
    /// E35: deletion and export.
    package let deletions: AccountDeletions
    /// E31: ID tokens of the configured providers, the nonces issued for them, failure counts.
    package let identityVerifier: any IdentityVerifying
    package let nonces: SignInNonces
    /// Sign in with Apple's server notifications, verified as the provider `apple`'s tokens.
    package let appleServerEvents: AppleServerEvents
}

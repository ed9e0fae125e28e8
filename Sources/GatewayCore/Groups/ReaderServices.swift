/// What serves readers: their accounts, what they may read now, their devices, the grants and
/// codes that give them access, and their print subscriptions' claims.
package struct ReaderServices: Sendable {
    package let accounts: ReaderAccounts
    package let entitlements: EntitlementsNow
    package let devices: Devices
    package let grants: Grants
    package let codes: AccessCodes
}

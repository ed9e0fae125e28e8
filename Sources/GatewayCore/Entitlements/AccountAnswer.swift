import Entitle

/// An account's entitlements now with the grants they came from (http-api.md, the entitlements
/// answer lists the grants with their notes).
package struct AccountAnswer: Sendable {
    package let entitlements: AccountEntitlements
    package let grants: [Grant]
}

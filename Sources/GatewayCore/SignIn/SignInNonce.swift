import GatewayCrypto
import Wire

/// readers.md E31 step 5: a nonce the gateway issues (`POST /v1/sessions/nonces`), 256 random
/// bits as base64url, live 10 minutes, stored only as the SHA-256 of its text.
package struct SignInNonce: Sendable, Equatable {
    package var nonce: String
    package var expiresAt: Instant

    package static let lifetimeSeconds: Int64 = 600
    /// An issued nonce is 43 characters; a longer body value is never one, and is not hashed.
    package static let maximumLength = 128

    /// The stored form of a presented nonce; nil for a value no issued nonce can be.
    package static func hash(_ nonce: String) -> String? {
        guard !nonce.isEmpty, nonce.utf8.count <= maximumLength else { return nil }
        return try? SecretHash.hex(of: nonce)
    }
}

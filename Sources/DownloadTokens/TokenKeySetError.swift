/// Why `ISSUE_GATEWAY_TOKEN_KEYS` (or a stored key file) was refused. Messages name the entry
/// and the kid, never the secret.
public enum TokenKeySetError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    /// Entry number `index` (1-based) is not `kid:secret`.
    case malformedEntry(index: Int)
    case invalidKid(String)
    case duplicateKid(String)
    case secretNotBase64url(kid: String)
    case secretTooShort(kid: String, bytes: Int)
    /// libcrypto could not key an HMAC with the secret.
    case unusableSecret(kid: String)

    public var description: String {
        switch self {
        case .empty:
            return "ISSUE_GATEWAY_TOKEN_KEYS holds no key; expected kid:base64url-secret[,kid2:…]"
        case .malformedEntry(let index):
            return "token key entry \(index) is not of the form kid:base64url-secret"
        case .invalidKid(let kid):
            return "token key id \"\(kid)\" must be 1–\(TokenKey.maximumKidLength) characters of A–Z a–z 0–9 . _ -"
        case .duplicateKid(let kid):
            return "token key id \"\(kid)\" appears more than once"
        case .secretNotBase64url(let kid):
            return "the secret of token key \"\(kid)\" is not unpadded base64url (RFC 4648 §5)"
        case .secretTooShort(let kid, let bytes):
            return "the secret of token key \"\(kid)\" is \(bytes) bytes; at least \(TokenKey.minimumSecretBytes) are required"
        case .unusableSecret(let kid):
            return "libcrypto could not set up HMAC-SHA-256 with the secret of token key \"\(kid)\""
        }
    }
}

import GatewayCrypto
/// One HS256 key: its id (the JWS `kid`) and its secret. The secret never appears in
/// `description`, so logging a key or a key set cannot leak it.
public struct TokenKey: Equatable, Sendable, CustomStringConvertible {
    /// tokens.md: secrets of 32 bytes or more (RFC 7518 §3.2: at least the hash output size).
    public static let minimumSecretBytes = 32
    /// Generated secrets are exactly this long.
    public static let generatedSecretBytes = 32
    public static let maximumKidLength = 64

    public let kid: String
    public let secret: [UInt8]
    /// The secret's HMAC schedule, computed once (tokens.md step 3 runs on every edge request).
    private let prepared: HMACSHA256.PreparedKey

    public init(kid: String, secret: [UInt8]) throws(TokenKeySetError) {
        guard TokenKey.isValidKid(kid) else { throw .invalidKid(kid) }
        guard secret.count >= TokenKey.minimumSecretBytes else { throw .secretTooShort(kid: kid, bytes: secret.count) }
        do { prepared = try HMACSHA256.PreparedKey(key: secret) } catch { throw .unusableSecret(kid: kid) }
        self.kid = kid
        self.secret = secret
    }

    public static func == (a: TokenKey, b: TokenKey) -> Bool { a.kid == b.kid && a.secret == b.secret }

    /// `kid`s are 1–64 characters of `A–Z a–z 0–9 . _ -`: they travel in the configuration
    /// string (where `:` and `,` separate) and in logs, so nothing else is allowed.
    public static func isValidKid(_ kid: String) -> Bool {
        let bytes = Array(kid.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumKidLength else { return false }
        return bytes.allSatisfy { c in
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }

    public func mac(_ signingInput: [UInt8]) throws(CryptoError) -> [UInt8] {
        try prepared.authenticationCode(message: signingInput)
    }

    public var description: String { "TokenKey(kid: \(kid), secret: <\(secret.count) bytes>)" }
}

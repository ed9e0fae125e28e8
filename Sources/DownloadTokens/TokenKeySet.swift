import GatewayCrypto
import Wire

/// The HS256 keys of the gateway (http-api.md, `ISSUE_GATEWAY_TOKEN_KEYS`): the first signs,
/// all verify. Rotation (tokens.md): put the new key first and keep the old one after it for at
/// least one token lifetime. A token's `kid` is only ever a lookup in this table.
public struct TokenKeySet: Equatable, Sendable, CustomStringConvertible {
    public let keys: [TokenKey]
    private let byKid: [String: TokenKey]

    public init(keys: [TokenKey]) throws(TokenKeySetError) {
        guard !keys.isEmpty else { throw .empty }
        var table: [String: TokenKey] = [:]
        for key in keys {
            guard table[key.kid] == nil else { throw .duplicateKid(key.kid) }
            table[key.kid] = key
        }
        self.keys = keys
        self.byKid = table
    }

    /// Parses `kid:base64url-secret,kid2:…`. Blanks around entries and a trailing newline (as a
    /// stored key file has) are ignored; the secret is strict unpadded base64url.
    public init(parsing configuration: String) throws(TokenKeySetError) {
        let trimmed = configuration.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        var keys: [TokenKey] = []
        for (offset, rawEntry) in trimmed.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let entry = String(rawEntry).trimmingASCIIWhitespace()
            guard let colon = entry.firstIndex(of: ":") else { throw .malformedEntry(index: offset + 1) }
            let kid = String(entry[..<colon])
            guard TokenKey.isValidKid(kid) else {
                throw kid.isEmpty ? .malformedEntry(index: offset + 1) : .invalidKid(kid)
            }
            guard let secret = Base64URL.decode(String(entry[entry.index(after: colon)...])) else {
                throw .secretNotBase64url(kid: kid)
            }
            keys.append(try TokenKey(kid: kid, secret: secret))
        }
        try self.init(keys: keys)
    }

    /// A fresh single-key set: a random 8-character kid and a 32-byte secret.
    public static func generate(using random: some RandomBytesSource) throws(CryptoError) -> TokenKeySet {
        let key = try generateKey(using: random, avoiding: [])
        // A generated key always satisfies the table's rules.
        return try! TokenKeySet(keys: [key])
    }

    /// This set with a freshly generated key in front (it signs from now on); the current keys
    /// stay after it so tokens they signed keep verifying until the operator removes them.
    public func rotated(using random: some RandomBytesSource) throws(CryptoError) -> TokenKeySet {
        let key = try TokenKeySet.generateKey(using: random, avoiding: Set(byKid.keys))
        return try! TokenKeySet(keys: [key] + keys)
    }

    private static func generateKey(using random: some RandomBytesSource, avoiding used: Set<String>)
        throws(CryptoError) -> TokenKey {
        while true {
            let kid = Base64URL.encode(try random.randomBytes(count: 6))
            guard !used.contains(kid) else { continue }
            return try! TokenKey(kid: kid, secret: try random.randomBytes(count: TokenKey.generatedSecretBytes))
        }
    }

    /// The key that signs new tokens.
    public var signingKey: TokenKey { keys[0] }

    public func key(for kid: String) -> TokenKey? { byKid[kid] }

    /// The `ISSUE_GATEWAY_TOKEN_KEYS` form, which `init(parsing:)` reads back. It holds the
    /// secrets: store it only in a file of mode 0600.
    public var serialized: String {
        keys.map { "\($0.kid):\(Base64URL.encode($0.secret))" }.joined(separator: ",")
    }

    public var description: String { "TokenKeySet(\(keys.map(\.kid).joined(separator: ", ")))" }

    public static func == (a: TokenKeySet, b: TokenKeySet) -> Bool { a.keys == b.keys }
}

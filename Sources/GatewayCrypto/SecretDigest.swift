import Wire

/// A presented secret's SHA-256, hashed once per request and kept as four words: the key that
/// resolved principals are remembered under (no hex string to build or hash per request) and the
/// value compared, in constant time, with a stored hash (http-api.md, Conventions).
public struct SecretDigest: Hashable, Sendable {
    /// The digest's 32 bytes, big-endian words: what a request carries from the fast path that
    /// hashed its secret to the handler (`HTTPRequest.credentialDigest`).
    public let words: SIMD4<UInt64>

    public init(words: SIMD4<UInt64>) { self.words = words }

    public init(of secret: String) throws(CryptoError) {
        self.init(bytes: try SHA256Digest.hash(secret.utf8))!
    }

    /// Nil unless `hex` is a well-formed SHA-256 in hex (a malformed stored hash never matches).
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex) else { return nil }
        self.init(bytes: bytes)
    }

    private init?(bytes: [UInt8]) {
        guard bytes.count == SHA256Digest.byteCount else { return nil }
        var words = SIMD4<UInt64>()
        for word in 0..<4 {
            var value: UInt64 = 0
            for byte in bytes[(word * 8)..<(word * 8 + 8)] { value = value << 8 | UInt64(byte) }
            words[word] = value
        }
        self.words = words
    }

    /// The lower-case hex the store keeps secrets under.
    public var hex: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(SHA256Digest.byteCount)
        for word in 0..<4 {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: words[word] >> UInt64(shift))) }
        }
        return Hex.encode(bytes)
    }

    /// Constant time: every word is compared, whatever the first difference.
    public func matches(_ other: SecretDigest) -> Bool {
        let difference = words ^ other.words
        return (difference[0] | difference[1] | difference[2] | difference[3]) == 0
    }

    /// Against a stored hex hash, in constant time; a malformed stored hash never matches.
    public func matches(storedHex: String) -> Bool {
        guard let stored = SecretDigest(hex: storedHex) else { return false }
        return matches(stored)
    }
}

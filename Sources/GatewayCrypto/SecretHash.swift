import Wire

/// Principal secrets (admin, editor and service keys, account tokens) are stored only as the
/// SHA-256 of their UTF-8 bytes, in lower-case hex, and compared in constant time (http-api.md,
/// Conventions: "Secrets are stored only as hashes and compared in constant time").
///
/// A plain hash (no salt, no stretching) is enough because every secret is 256 random bits
/// (`SecretGenerator`): there is no dictionary to attack, and lookups stay O(1) by hash.
public enum SecretHash {
    public static func hex(of secret: String) throws(CryptoError) -> String {
        Hex.encode(try SHA256Digest.hash(secret.utf8))
    }

    /// Hashes the presented secret and compares digests in constant time; a malformed stored
    /// hash never matches.
    public static func matches(secret: String, storedHex: String) -> Bool {
        (try? SecretDigest(of: secret))?.matches(storedHex: storedHex) ?? false
    }
}

/// Fresh bearer secrets: base64url of 32 random bytes (43 characters, 256 bits).
public enum SecretGenerator {
    public static let secretByteCount = 32

    public static func generate(using random: some RandomBytesSource) throws(CryptoError) -> String {
        Base64URL.encode(try random.randomBytes(count: secretByteCount))
    }
}

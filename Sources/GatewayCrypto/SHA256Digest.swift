/// SHA-256 (FIPS 180-4) through libcrypto's `EVP_Digest`.
public enum SHA256Digest {
    public static let byteCount = 32

    public static func hash(_ message: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
        try MessageDigest.sha256.hash(message)
    }
}

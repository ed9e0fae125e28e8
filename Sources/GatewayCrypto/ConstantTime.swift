import CCrypto

/// Comparison of secrets and MACs whose duration does not depend on where they differ
/// (libcrypto's `CRYPTO_memcmp`), so a timing oracle cannot recover them byte by byte.
public enum ConstantTime {
    /// Lengths are compared in the open: every value compared here (MACs, SHA-256 digests) has a
    /// fixed, public length, so only the contents are secret.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, x.count) == 0 }
        }
    }
}

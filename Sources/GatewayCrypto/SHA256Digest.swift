import CCrypto

/// SHA-256 (FIPS 180-4) through libcrypto's `EVP_Digest`.
public enum SHA256Digest {
    public static let byteCount = 32

    public static func hash(_ message: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
        let data = Array(message)
        var out = [UInt8](repeating: 0, count: byteCount)
        var written: UInt32 = 0
        let ok = data.withUnsafeBytes { d in
            out.withUnsafeMutableBufferPointer { o in
                EVP_Digest(d.baseAddress, d.count, o.baseAddress, &written, EVP_sha256(), nil) == 1
            }
        }
        guard ok, written == UInt32(byteCount) else { throw .libcryptoFailure("EVP_Digest") }
        return out
    }
}

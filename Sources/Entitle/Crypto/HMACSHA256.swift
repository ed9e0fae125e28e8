import CCrypto

/// HMAC-SHA-256 (RFC 2104 with SHA-256, test vectors RFC 4231) through libcrypto's one-shot `HMAC`.
public enum HMACSHA256 {
    public static let outputByteCount = 32

    public static func authenticationCode(key: [UInt8], message: some Sequence<UInt8>)
        throws(CryptoError) -> [UInt8] {
        let data = Array(message)
        // libcrypto needs a non-null key pointer even for an empty key.
        let keyBytes = key.isEmpty ? [UInt8(0)] : key
        guard key.count <= Int(Int32.max) else { throw .libcryptoFailure("HMAC: key too long") }
        var out = [UInt8](repeating: 0, count: outputByteCount)
        var written: UInt32 = 0
        let ok = keyBytes.withUnsafeBytes { k in
            data.withUnsafeBufferPointer { d in
                out.withUnsafeMutableBufferPointer { o in
                    HMAC(EVP_sha256(), k.baseAddress, Int32(key.count),
                         d.baseAddress, d.count, o.baseAddress, &written) != nil
                }
            }
        }
        guard ok, written == UInt32(outputByteCount) else { throw .libcryptoFailure("HMAC") }
        return out
    }
}

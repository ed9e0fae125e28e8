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

extension HMACSHA256 {
    /// A key whose HMAC schedule libcrypto has computed once; each MAC then copies the keyed
    /// context instead of fetching the algorithm and hashing the key again. Immutable after
    /// creation, so threads share it (each call works on its own copy).
    public final class PreparedKey: @unchecked Sendable {
        private let context: OpaquePointer

        public init(key: [UInt8]) throws(CryptoError) {
            let keyBytes = key.isEmpty ? [UInt8(0)] : key
            guard let context = keyBytes.withUnsafeBufferPointer({ ccrypto_hmac_sha256_prepare($0.baseAddress, key.count) }) else {
                throw .libcryptoFailure("HMAC key setup")
            }
            self.context = context
        }

        deinit { EVP_MAC_CTX_free(context) }

        public func authenticationCode(message: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: outputByteCount)
            let ok = message.withContiguousStorageIfAvailable { m in
                out.withUnsafeMutableBufferPointer { ccrypto_hmac_sha256_with(context, m.baseAddress, m.count, $0.baseAddress) }
            } ?? Array(message).withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { ccrypto_hmac_sha256_with(context, m.baseAddress, m.count, $0.baseAddress) }
            }
            guard ok == 1 else { throw .libcryptoFailure("HMAC") }
            return out
        }
    }
}

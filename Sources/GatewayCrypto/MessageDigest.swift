import CCrypto

/// The digests the gateway signs or hashes with, by their libcrypto implementation.
public enum MessageDigest: String, Sendable, CaseIterable {
    case md5 = "MD5"
    case sha1 = "SHA1"
    case sha256 = "SHA256"

    var algorithm: OpaquePointer? {
        switch self {
        case .md5: return EVP_md5()
        case .sha1: return EVP_sha1()
        case .sha256: return EVP_sha256()
        }
    }

    /// One-shot `EVP_Digest` of `message`.
    public func hash(_ message: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
        let data = Array(message)
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var written: UInt32 = 0
        let ok = data.withUnsafeBytes { d in
            out.withUnsafeMutableBufferPointer { o in
                EVP_Digest(d.baseAddress, d.count, o.baseAddress, &written, algorithm, nil) == 1
            }
        }
        guard ok, written > 0 else { throw .libcryptoFailure("EVP_Digest \(rawValue)") }
        return Array(out.prefix(Int(written)))
    }
}

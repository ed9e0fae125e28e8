import CCrypto

/// ES256's signature form (RFC 7518 §3.4): the fixed concatenation r‖s, each scalar 32 bytes,
/// where libcrypto speaks DER `ECDSA-Sig-Value` (RFC 3279 §2.2.3).
public enum ECDSARawSignature {
    public static let scalarLength = 32
    public static let length = 2 * scalarLength

    /// DER → r‖s (each scalar left-padded), or nil when the DER is not a signature.
    public static func fromDER(_ der: [UInt8]) -> [UInt8]? {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { ERR_clear_error(); return nil }
        defer { ECDSA_SIG_free(parsed) }
        var out = [UInt8](repeating: 0, count: length)
        let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(ECDSA_SIG_get0_r(parsed), base, Int32(scalarLength)) == scalarLength
                && BN_bn2binpad(ECDSA_SIG_get0_s(parsed), base + scalarLength, Int32(scalarLength)) == scalarLength
        }
        return ok ? out : nil
    }

    /// r‖s → DER, or nil unless exactly `length` bytes: what libcrypto verifies.
    public static func toDER(_ raw: [UInt8]) -> [UInt8]? {
        guard raw.count == length, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature); ERR_clear_error() }
        guard let r = BN_bin2bn(raw, Int32(scalarLength), nil) else { return nil }
        guard let s = BN_bin2bn(Array(raw[scalarLength...]), Int32(scalarLength), nil) else { BN_free(r); return nil }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else { BN_free(r); BN_free(s); return nil }
        let count = i2d_ECDSA_SIG(signature, nil)
        guard count > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(count))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == count ? der : nil
    }
}

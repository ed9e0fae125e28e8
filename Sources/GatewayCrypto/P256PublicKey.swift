import CCrypto

/// An EC P-256 public key from a JWK's `x` and `y` (RFC 7518 §6.2.1) that checks ES256 signatures
/// (RFC 7518 §3.4: r‖s over SHA-256): OpenID Connect providers' keys (Sign in with Apple may
/// publish them, a publisher's own provider often does).
public final class P256PublicKey: @unchecked Sendable {
    private let pointer: OpaquePointer

    /// nil unless both coordinates are 32 bytes and name a point on the curve.
    public init?(x: [UInt8], y: [UInt8]) {
        guard x.count == ECDSARawSignature.scalarLength, y.count == ECDSARawSignature.scalarLength else { return nil }
        let key = x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in ccrypto_p256_public_key(x.baseAddress, y.baseAddress) } }
        ERR_clear_error()
        guard let key else { return nil }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Whether `signature` (r‖s, 64 bytes) is ES256 over `message` by this key.
    public func verifyES256(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let der = ECDSARawSignature.toDER(signature), let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context); ERR_clear_error() }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return false }
        return EVP_DigestVerify(context, der, der.count, message, message.count) == 1
    }
}

import CCrypto

/// A public key read from an SPKI PEM that checks signatures made by `SigningPrivateKey`
/// (`EVP_DigestVerify`): how a signature whose bytes are randomized (ECDSA) is checked.
public final class SignaturePublicKey: @unchecked Sendable {
    private let key: OpaquePointer

    /// Nil unless `pem` is a `-----BEGIN PUBLIC KEY-----` block libcrypto reads.
    public init?(pem: String) {
        let parsed = PEMReading.read(pem) { PEM_read_bio_PUBKEY($0, nil, nil, nil) }
        guard let parsed else { return nil }
        key = parsed
    }

    deinit { EVP_PKEY_free(key) }

    /// Whether `signature` (PKCS#1 v1.5 or DER ECDSA) verifies over `message` hashed with `digest`.
    public func verifies(_ signature: [UInt8], over message: some Sequence<UInt8>, digest: MessageDigest) -> Bool {
        let data = Array(message)
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context); ERR_clear_error() }
        guard EVP_DigestVerifyInit(context, nil, digest.algorithm, nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, data, data.count) == 1
    }
}

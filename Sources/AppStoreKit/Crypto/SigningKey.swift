import CCrypto
import Foundation

/// An EC private key, owning its `EVP_PKEY`: generated for the App Store simulator's test CA, or
/// read from a `.p8` file for the APNs provider tokens (the gateway holds no other private key).
public final class SigningKey: @unchecked Sendable {
    package let pointer: OpaquePointer

    public enum Curve: String, Sendable {
        case p256 = "P-256"
        case p384 = "P-384"
    }

    /// Generates a fresh key on `curve` (P-384 exists only so tests can offer a wrong-curve leaf).
    public init?(curve: Curve = .p256) {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context); OpenSSLErrorQueue.clear() }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_group_name(context, curve.rawValue) == 1,
              EVP_PKEY_generate(context, &key) == 1, let key else { return nil }
        pointer = key
    }

    /// An EC P-256 private key from PEM (a `.p8` file: PKCS#8 `-----BEGIN PRIVATE KEY-----`), as
    /// Apple hands out for APNs and the App Store Server API; nil for anything else.
    public init?(pem: String) {
        let bytes = Array(pem.utf8)
        guard let bio = bytes.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else { return nil }
        defer { BIO_free(bio); OpenSSLErrorQueue.clear() }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else { return nil }
        guard ES256.isP256(key) else { EVP_PKEY_free(key); return nil }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// ES256 over `message`, as raw r‖s.
    public func signES256(_ message: Data) -> Data? { ES256.sign(message: message, privateKey: pointer) }
}

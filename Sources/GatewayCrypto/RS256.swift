import CCrypto

/// RS256 (RFC 7518 §3.3): RSASSA-PKCS1-v1_5 with SHA-256. Google's service-account assertions
/// (the gateway signs) and Google's OIDC push tokens (the gateway verifies) use it.
public enum RS256 {
    /// RFC 7518 §3.3: "A key of size 2048 bits or larger MUST be used"; a smaller key's signature
    /// is refused even when it verifies.
    public static let minimumModulusBits: Int32 = 2048

    static func sign(_ message: [UInt8], key: OpaquePointer) -> [UInt8]? {
        try? SigningPrivateKey.digestSign(message, digest: .sha256, key: key)
    }

    static func verify(_ signature: [UInt8], message: [UInt8], key: OpaquePointer) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context); ERR_clear_error() }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return signature.withUnsafeBufferPointer { s in
            message.withUnsafeBufferPointer { m in
                EVP_DigestVerify(context, s.baseAddress, s.count, m.baseAddress, m.count) == 1
            }
        }
    }

    static func isLargeEnoughRSA(_ key: OpaquePointer) -> Bool {
        EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA && EVP_PKEY_get_bits(key) >= minimumModulusBits
    }
}

/// An RSA private key that signs RS256: a service account's (`private_key` of its JSON key, PKCS#8
/// PEM, RFC 7468 §10), or one generated for a simulator.
public final class RSAPrivateKey: @unchecked Sendable {
    private let pointer: OpaquePointer

    public enum PEMError: Error, Equatable, Sendable, CustomStringConvertible {
        case notAPrivateKey
        case notRSA2048

        public var description: String {
            switch self {
            case .notAPrivateKey: "is not a PEM private key (-----BEGIN PRIVATE KEY-----)"
            case .notRSA2048: "is not an RSA key of 2048 bits or more (RS256)"
            }
        }
    }

    /// Parses `pem`; the text is never echoed in an error (it is a secret).
    public init(pem: String) throws(PEMError) {
        // The passphrase callback declines: libcrypto's default would read the terminal.
        guard let key = PEMReading.read(pem, { PEM_read_bio_PrivateKey($0, nil, { _, _, _, _ in 0 }, nil) }) else {
            throw .notAPrivateKey
        }
        guard RS256.isLargeEnoughRSA(key) else { EVP_PKEY_free(key); throw .notRSA2048 }
        pointer = key
    }

    /// A fresh key of `bits` (simulators and tests).
    public init?(generatingBits bits: Int32 = 2048) {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context); ERR_clear_error() }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) == 1,
              EVP_PKEY_generate(context, &key) == 1, let key else { return nil }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The RS256 signature of `message`; nil when libcrypto could not sign.
    public func signRS256(_ message: [UInt8]) -> [UInt8]? { RS256.sign(message, key: pointer) }

    /// The key as PKCS#8 PEM (a simulator writes the service-account file a gateway reads).
    public var pkcs8PEM: String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio); ERR_clear_error() }
        guard PEM_write_bio_PKCS8PrivateKey(bio, pointer, nil, nil, 0, nil, nil) == 1 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard length > 0, let data else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The public half's JWK members `n` and `e` (RFC 7518 §6.3.1), big-endian unsigned bytes.
    public var publicComponents: (modulus: [UInt8], exponent: [UInt8])? {
        guard let n = component(OSSL_PKEY_PARAM_RSA_N), let e = component(OSSL_PKEY_PARAM_RSA_E) else { return nil }
        return (n, e)
    }

    private func component(_ name: String) -> [UInt8]? {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else { ERR_clear_error(); return nil }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        _ = bytes.withUnsafeMutableBufferPointer { BN_bn2bin(number, $0.baseAddress) }
        return bytes
    }
}

/// An RSA public key from a JWK's `n` and `e` that checks RS256 signatures (Google's OIDC keys).
public final class RSAPublicKey: @unchecked Sendable {
    private let pointer: OpaquePointer

    /// nil unless libcrypto takes the numbers as an RSA key of at least 2048 bits.
    public init?(modulus: [UInt8], exponent: [UInt8]) {
        guard !modulus.isEmpty, !exponent.isEmpty else { return nil }
        let key = modulus.withUnsafeBufferPointer { n in
            exponent.withUnsafeBufferPointer { e in ccrypto_rsa_public_key(n.baseAddress, n.count, e.baseAddress, e.count) }
        }
        ERR_clear_error()
        guard let key else { return nil }
        guard RS256.isLargeEnoughRSA(key) else { EVP_PKEY_free(key); return nil }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Whether `signature` is RS256 over `message` by this key.
    public func verifyRS256(signature: [UInt8], message: [UInt8]) -> Bool {
        RS256.verify(signature, message: message, key: pointer)
    }
}

import CCrypto

/// A private key read from PEM that signs with a digest (RSA PKCS#1 v1.5, RFC 8017 §8.2, or
/// ECDSA with a DER signature, SEC 1 §4.1 / RFC 3279 §2.2.3) through libcrypto's
/// `EVP_DigestSign`. Only RSA 2048 and EC P-256 are taken: what CloudFront accepts for signed
/// URLs and cookies. Immutable after creation, so threads share it.
public final class SigningPrivateKey: @unchecked Sendable {
    public enum Kind: Equatable, Sendable, CustomStringConvertible {
        case rsa2048
        case ecP256

        public var description: String { self == .rsa2048 ? "RSA 2048" : "EC P-256" }
    }

    public enum PEMError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not a PEM private key libcrypto can read unencrypted (PKCS#1, SEC1 or PKCS#8).
        case notAPrivateKey
        /// A private key of another type or size.
        case unsupportedKey(String)

        public var description: String {
            switch self {
            case .notAPrivateKey:
                return "is not an unencrypted PEM private key (PKCS#1, SEC1 or PKCS#8)"
            case .unsupportedKey(let what):
                return "is \(what); only RSA 2048 and EC P-256 keys are accepted"
            }
        }
    }

    public let kind: Kind
    private let key: OpaquePointer

    /// Parses `pem`; the text is never echoed in an error (it is a secret). An encrypted key is
    /// refused rather than prompting for a passphrase on the terminal.
    public init(pem: String) throws(PEMError) {
        // The passphrase callback declines: libcrypto's default would read the terminal.
        let parsed = PEMReading.read(pem) { PEM_read_bio_PrivateKey($0, nil, { _, _, _, _ in 0 }, nil) }
        guard let parsed else { throw .notAPrivateKey }
        switch EVP_PKEY_get_base_id(parsed) {
        case EVP_PKEY_RSA where EVP_PKEY_get_bits(parsed) == 2048:
            kind = .rsa2048
        case EVP_PKEY_RSA:
            let bits = EVP_PKEY_get_bits(parsed)
            EVP_PKEY_free(parsed)
            throw .unsupportedKey("an RSA \(bits) key")
        case EVP_PKEY_EC where Self.groupName(parsed) == "prime256v1":
            kind = .ecP256
        case EVP_PKEY_EC:
            EVP_PKEY_free(parsed)
            throw .unsupportedKey("an EC key on another curve")
        default:
            EVP_PKEY_free(parsed)
            throw .unsupportedKey("neither an RSA nor an EC key")
        }
        key = parsed
    }

    deinit { EVP_PKEY_free(key) }

    /// The signature of `message` hashed with `digest`: PKCS#1 v1.5 for RSA, DER for ECDSA.
    public func sign(_ message: some Sequence<UInt8>, digest: MessageDigest) throws(CryptoError) -> [UInt8] {
        try Self.digestSign(Array(message), digest: digest, key: key)
    }

    /// `EVP_DigestSign` of `data` with any private key: the one signing path of this target
    /// (RS256's assertions use it too).
    static func digestSign(_ data: [UInt8], digest: MessageDigest, key: OpaquePointer) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .libcryptoFailure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context); ERR_clear_error() }
        guard EVP_DigestSignInit(context, nil, digest.algorithm, nil, key) == 1 else {
            throw .libcryptoFailure("EVP_DigestSignInit")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, data, data.count) == 1 else { throw .libcryptoFailure("EVP_DigestSign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, data, data.count) == 1 else {
            throw .libcryptoFailure("EVP_DigestSign")
        }
        return Array(signature.prefix(length))
    }

    /// The public half as an SPKI PEM (`-----BEGIN PUBLIC KEY-----`, RFC 7468 §13): what is
    /// uploaded to a CDN that checks the signatures.
    public var publicKeyPEM: String {
        get throws(CryptoError) {
            guard let bio = BIO_new(BIO_s_mem()) else { throw .libcryptoFailure("BIO_new") }
            defer { BIO_free(bio); ERR_clear_error() }
            guard PEM_write_bio_PUBKEY(bio, key) == 1 else { throw .libcryptoFailure("PEM_write_bio_PUBKEY") }
            var data: UnsafeMutablePointer<CChar>?
            let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
            guard length > 0, let data else { throw .libcryptoFailure("BIO_ctrl") }
            return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
        }
    }

    static func groupName(_ key: OpaquePointer) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { ERR_clear_error(); return nil }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import CCrypto
import Foundation

/// PKCS#8 PEM private keys (RFC 5208, RFC 7468 §10): the App Store Server API's `.p8` file is
/// one, holding a P-256 key. Read with libcrypto; only an EC key on P-256 is accepted, since the
/// key signs ES256 (RFC 7518 §3.4) and nothing else.
extension SigningKey {
    public enum PEMError: Error, Equatable, Sendable, CustomStringConvertible {
        case notAPrivateKey
        case notP256

        public var description: String {
            switch self {
            case .notAPrivateKey: "is not a PEM private key (-----BEGIN PRIVATE KEY-----)"
            case .notP256: "is not an EC private key on P-256 (ES256)"
            }
        }
    }

    /// Parses `pem`; the text is never echoed in an error (it is a secret).
    public convenience init(pkcs8PEM pem: String) throws(PEMError) {
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        OpenSSLErrorQueue.clear()
        guard let key else { throw .notAPrivateKey }
        guard ES256.isP256(key) else { EVP_PKEY_free(key); throw .notP256 }
        self.init(owning: key)
    }

    /// The key as PKCS#8 PEM (the simulator writes the `.p8` a test gateway reads).
    public var pkcs8PEM: String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio); OpenSSLErrorQueue.clear() }
        guard PEM_write_bio_PKCS8PrivateKey(bio, pointer, nil, nil, 0, nil, nil) == 1 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard length > 0, let data else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The public half as a DER `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7), what the App Store
    /// keeps of an In-App Purchase key to check the tokens it signs.
    public var publicKeyDER: Data? { DEREncoding.encode { i2d_PUBKEY(pointer, $0) } }
}

/// A P-256 public key that checks ES256 signatures (the simulator checks the gateway's tokens).
public final class ES256PublicKey: @unchecked Sendable {
    private let pointer: OpaquePointer

    /// Parses a DER `SubjectPublicKeyInfo`; nil unless it is a P-256 key.
    public init?(der: Data) {
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress
            return d2i_PUBKEY(nil, &cursor, raw.count)
        }
        OpenSSLErrorQueue.clear()
        guard let parsed else { return nil }
        guard ES256.isP256(parsed) else { EVP_PKEY_free(parsed); return nil }
        pointer = parsed
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Whether `signature` (raw r‖s) verifies over `message`.
    public func verify(signature: Data, message: Data) -> Bool {
        ES256.verify(rawSignature: signature, message: message, publicKey: pointer)
    }
}

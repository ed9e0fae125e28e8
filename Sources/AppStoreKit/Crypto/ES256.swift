import CCrypto
import Foundation
import GatewayCrypto

/// ES256 (RFC 7518 §3.4): ECDSA on P-256 with SHA-256. A JWS carries the signature as the fixed
/// 64-byte concatenation r‖s; libcrypto speaks DER `ECDSA-Sig-Value`, so both directions convert.
enum ES256 {
    static let rawSignatureLength = ECDSARawSignature.length
    static let scalarLength = ECDSARawSignature.scalarLength

    /// Whether `key` is an EC key on P-256: an ES256 signature from any other key is refused even
    /// when it would verify (RFC 7518 §3.4 fixes the curve).
    static func isP256(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }

    /// r‖s → DER, or nil unless exactly 64 bytes.
    static func derSignature(fromRaw raw: Data) -> Data? { ECDSARawSignature.toDER([UInt8](raw)).map { Data($0) } }

    /// Verifies a raw r‖s signature over `message` (hashed with SHA-256 here) with `publicKey`.
    static func verify(rawSignature raw: Data, message: Data, publicKey: OpaquePointer) -> Bool {
        guard isP256(publicKey), let der = derSignature(fromRaw: raw), let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context); OpenSSLErrorQueue.clear() }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, publicKey) == 1 else { return false }
        let result = der.withUnsafeBytes { signature in
            message.withUnsafeBytes { tbs in
                EVP_DigestVerify(context, signature.bindMemory(to: UInt8.self).baseAddress, signature.count,
                                 tbs.bindMemory(to: UInt8.self).baseAddress, tbs.count)
            }
        }
        return result == 1
    }

    /// Signs `message` with a P-256 private key and returns r‖s (the simulator's signer).
    static func sign(message: Data, privateKey: OpaquePointer) -> Data? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context); OpenSSLErrorQueue.clear() }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, privateKey) == 1 else { return nil }
        return message.withUnsafeBytes { tbs -> Data? in
            let base = tbs.bindMemory(to: UInt8.self).baseAddress
            var length = 0
            guard EVP_DigestSign(context, nil, &length, base, tbs.count) == 1 else { return nil }
            var der = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &der, &length, base, tbs.count) == 1 else { return nil }
            return ECDSARawSignature.fromDER(Array(der.prefix(length))).map { Data($0) }
        }
    }
}

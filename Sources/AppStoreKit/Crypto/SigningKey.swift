import CCrypto
import Foundation
import Wire

/// An EC private key, owning its `EVP_PKEY`: generated for the App Store simulator's test CA, or
/// read from a `.p8` file (`init(pkcs8PEM:)`): the App Store Server API's, which signs the
/// gateway's requests to Apple, and the APNs provider's.
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

    /// Takes ownership of an `EVP_PKEY*` (freed with this object).
    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// ES256 over `message`, as raw r‖s.
    public func signES256(_ message: Data) -> Data? { ES256.sign(message: message, privateKey: pointer) }

    /// A compact JWS signed ES256 (RFC 7515 §7.1): `BASE64URL(header) '.' BASE64URL(claims) '.'
    /// BASE64URL(r‖s)`, for the bearer tokens the gateway sends Apple (Server API, APNs); nil when
    /// libcrypto could not sign.
    public func compactES256(header: [UInt8], claims: [UInt8]) -> String? {
        CompactJWS.serialize(header: header, payload: claims) { input in signES256(Data(input)).map { Array($0) } }
    }
}

import CCrypto
import Foundation
import Wire

/// One parsed X.509 certificate, owning its libcrypto `X509`.
///
/// Immutable after parsing; libcrypto's certificate objects are reference counted and safe to
/// read from several threads, hence `@unchecked Sendable`.
public final class X509Certificate: @unchecked Sendable, Equatable {
    package let pointer: OpaquePointer

    /// Takes ownership of an `X509*` (it is freed with this object).
    package init(owning pointer: OpaquePointer) { self.pointer = pointer }

    /// Parses DER. The whole buffer must be one certificate: trailing bytes are refused, so two
    /// encodings of "the same" input cannot differ in what is trusted.
    public convenience init?(der: Data) {
        guard !der.isEmpty else { return nil }
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let cert = d2i_X509(nil, &cursor, raw.count) else { return nil }
            guard cursor == base + raw.count else { X509_free(cert); return nil }
            return cert
        }
        OpenSSLErrorQueue.clear()
        guard let parsed else { return nil }
        self.init(owning: parsed)
    }

    deinit { X509_free(pointer) }

    /// The DER encoding.
    public var der: Data { DEREncoding.encode { i2d_X509(pointer, $0) } ?? Data() }

    /// Whether the certificate carries an extension with this dotted OID, critical or not.
    public func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
    }

    /// Whether `issuerKey` verifies this certificate's own signature.
    func isSigned(by issuerKey: OpaquePointer) -> Bool {
        defer { OpenSSLErrorQueue.clear() }
        return X509_verify(pointer, issuerKey) == 1
    }

    /// The subject public key, borrowed from the certificate (valid while it lives).
    var publicKey: OpaquePointer? { X509_get0_pubkey(pointer) }

    /// `[notBefore, notAfter]` as instants (RFC 5280 §4.1.2.5), nil when either cannot be read.
    var validity: ClosedRange<Instant>? {
        guard let start = Self.instant(X509_get0_notBefore(pointer)), let end = Self.instant(X509_get0_notAfter(pointer)),
              start <= end else { return nil }
        return start...end
    }

    private static func instant(_ time: UnsafePointer<ASN1_TIME>?) -> Instant? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { OpenSSLErrorQueue.clear(); return nil }
        return Instant(secondsSinceEpoch: Int64(timegm(&parts)))
    }

    public var subjectDescription: String {
        guard let name = X509_get_subject_name(pointer), let line = X509_NAME_oneline(name, nil, 0) else { return "?" }
        defer { CRYPTO_free(line, #fileID, #line) }
        return String(cString: line)
    }

    public static func == (a: X509Certificate, b: X509Certificate) -> Bool { X509_cmp(a.pointer, b.pointer) == 0 }
}

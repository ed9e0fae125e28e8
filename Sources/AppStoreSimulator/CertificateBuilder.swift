import AppStoreKit
import CCrypto
import Foundation
import IssueCatalog
import Wire

/// Issues X.509 v3 certificates with libcrypto for the simulator's test CA: P-256 keys,
/// ECDSA-SHA256 signatures, basic constraints and key usage (RFC 5280 §4.2.1.9, §4.2.1.3) and,
/// on request, Apple's marker extensions (appstore.md "Version 2").
public struct CertificateBuilder: Sendable {
    public var commonName: String
    public var isCertificateAuthority: Bool
    /// Dotted OIDs added as non-critical extensions whose value is DER NULL, as Apple's are.
    public var markerOIDs: [String]
    public var notBefore: Instant
    public var notAfter: Instant
    public var serialNumber: Int

    public init(commonName: String, isCertificateAuthority: Bool, markerOIDs: [String] = [],
                notBefore: Instant, notAfter: Instant, serialNumber: Int = 1) {
        self.commonName = commonName
        self.isCertificateAuthority = isCertificateAuthority
        self.markerOIDs = markerOIDs
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.serialNumber = serialNumber
    }

    public enum BuildError: Error, Equatable, Sendable { case libcrypto(String) }

    /// Issues a certificate for `subjectKey`, signed by `issuer` (nil: self-signed).
    public func issue(subjectKey: SigningKey, issuer: (certificate: X509Certificate, key: SigningKey)?) throws(BuildError) -> X509Certificate {
        guard let cert = X509_new() else { throw .libcrypto("X509_new") }
        let certificate = X509Certificate(owning: cert)
        let signingKey = issuer?.key ?? subjectKey
        guard X509_set_version(cert, 2) == 1,
              ASN1_INTEGER_set(X509_get_serialNumber(cert), serialNumber) == 1,
              ASN1_TIME_set(X509_getm_notBefore(cert), time_t(notBefore.secondsSinceEpoch)) != nil,
              ASN1_TIME_set(X509_getm_notAfter(cert), time_t(notAfter.secondsSinceEpoch)) != nil,
              X509_NAME_add_entry_by_txt(X509_get_subject_name(cert), "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1,
              X509_set_issuer_name(cert, X509_get_subject_name(issuer?.certificate.pointer ?? cert)) == 1,
              X509_set_pubkey(cert, subjectKey.pointer) == 1
        else { throw .libcrypto(OpenSSLErrorQueue.drain(or: "certificate fields")) }
        try addStandardExtensions(to: cert, issuer: issuer?.certificate.pointer ?? cert)
        for oid in markerOIDs { try addMarker(oid: oid, to: cert) }
        guard X509_sign(cert, signingKey.pointer, EVP_sha256()) > 0 else {
            throw .libcrypto(OpenSSLErrorQueue.drain(or: "X509_sign"))
        }
        return certificate
    }

    private func addStandardExtensions(to cert: OpaquePointer, issuer: OpaquePointer) throws(BuildError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer, cert, nil, nil, 0)
        let extensions: [(Int32, String)] = isCertificateAuthority
            ? [(NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign")]
            : [(NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature")]
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw .libcrypto(OpenSSLErrorQueue.drain(or: "extension \(nid)"))
            }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(cert, ext, -1) == 1 else { throw .libcrypto(OpenSSLErrorQueue.drain(or: "X509_add_ext")) }
        }
    }

    private func addMarker(oid: String, to cert: OpaquePointer) throws(BuildError) {
        let derNull: [UInt8] = [0x05, 0x00]
        guard let object = OBJ_txt2obj(oid, 1), let value = ASN1_OCTET_STRING_new() else { throw .libcrypto("OID \(oid)") }
        defer { ASN1_OBJECT_free(object); ASN1_OCTET_STRING_free(value) }
        guard ASN1_OCTET_STRING_set(value, derNull, Int32(derNull.count)) == 1,
              let ext = X509_EXTENSION_create_by_OBJ(nil, object, 0, value) else {
            throw .libcrypto(OpenSSLErrorQueue.drain(or: "marker \(oid)"))
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(cert, ext, -1) == 1 else { throw .libcrypto(OpenSSLErrorQueue.drain(or: "X509_add_ext")) }
    }
}

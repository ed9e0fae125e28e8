/// Why a signed App Store payload (a V2 notification, a signed transaction, signed renewal info)
/// was refused. Each case names one check of appstore.md "Version 2 and signed transactions", so
/// logs and tests can tell the refusals apart; the HTTP layer answers all of them the same (401).
public enum SignedDataVerificationError: Error, Equatable, Sendable {
    /// No Apple root is configured: V2 is refused outright (http-api.md, `ISSUE_GATEWAY_APPLE_ROOT_CERTS`).
    case noTrustedRoots
    /// Longer than the configured limit (hostile input is bounded before any parsing).
    case tooLarge(limit: Int)
    /// Not three base64url segments (RFC 7515 §7.1).
    case malformedCompactSerialization
    /// The protected header is not a JSON object of the expected shape.
    case malformedHeader(String)
    /// `alg` is absent or anything but `ES256`.
    case unsupportedAlgorithm(String?)
    /// RFC 7515 §4.1.11: a `crit` header names extensions this verifier does not understand.
    case unsupportedCriticalHeader
    /// No `x5c` header.
    case missingCertificateChain
    /// `x5c` does not hold exactly three certificates.
    case wrongCertificateCount(Int)
    /// `x5c[index]` is not standard base64 of one DER certificate.
    case malformedCertificate(index: Int)
    /// The chain leaf → intermediate does not reach a configured root (libcrypto's reason attached).
    case untrustedChain(String)
    /// The chain does reach a root but some certificate is expired or not yet valid at the
    /// verification time (the payload's `signedDate`).
    case certificateNotValidAtSignedDate(String)
    /// `x5c[2]` is not the configured root the chain reached, nor signed by its key.
    case rootCertificateMismatch
    /// The intermediate lacks OID 1.2.840.113635.100.6.2.1.
    case missingIntermediateMarker
    /// The leaf lacks OID 1.2.840.113635.100.6.11.1.
    case missingLeafMarker
    /// The leaf key is not an EC key on P-256.
    case leafKeyNotP256
    /// The signature is not 64 bytes of r‖s.
    case malformedSignature
    /// The signature does not verify over `header.payload` with the leaf key.
    case invalidSignature
    /// The payload is not a JSON object with the fields this kind needs.
    case malformedPayload(String)
    /// The payload's `bundleId` is not the configured one.
    case bundleIdMismatch(found: String?)
    /// A production notification's `appAppleId` is absent, or not the configured one.
    case appAppleIdMismatch(found: Int64?)
    /// The payload's `environment` is not one the configuration accepts.
    case environmentNotAccepted(String?)
}

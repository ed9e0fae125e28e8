extension SignedDataVerificationError {
    /// What a client may be told: one fixed sentence per check. libcrypto's own reasons (carried
    /// by `untrustedChain` and `certificateNotValidAtSignedDate` for the log) never reach a client
    /// (http-api.md: error messages never carry database or library text); the details this
    /// project wrote itself (which field, which value) do.
    public var clientDescription: String {
        switch self {
        case .noTrustedRoots: return "no Apple root certificate is configured"
        case .tooLarge(let limit): return "longer than \(limit) bytes"
        case .malformedCompactSerialization: return "not a compact JWS of three base64url segments"
        case .malformedHeader(let detail): return "malformed header: \(detail)"
        case .unsupportedAlgorithm: return "the algorithm is not ES256"
        case .unsupportedCriticalHeader: return "the header names critical extensions"
        case .missingCertificateChain: return "the header has no x5c certificate chain"
        case .wrongCertificateCount(let count): return "x5c holds \(count) certificates, not 3"
        case .malformedCertificate(let index): return "x5c[\(index)] is not a DER certificate"
        case .untrustedChain: return "the certificate chain does not lead to a configured Apple root"
        case .certificateNotValidAtSignedDate: return "a certificate of the chain was not valid at signedDate"
        case .rootCertificateMismatch: return "x5c[2] is not the configured root"
        case .missingIntermediateMarker: return "the intermediate certificate lacks Apple's marker"
        case .missingLeafMarker: return "the leaf certificate lacks Apple's marker"
        case .leafKeyNotP256: return "the leaf key is not a P-256 key"
        case .malformedSignature: return "the signature is not 64 bytes of r and s"
        case .invalidSignature: return "the signature does not verify"
        case .malformedPayload(let detail): return "malformed payload: \(detail)"
        case .bundleIdMismatch: return "the bundleId is not this app's"
        case .appAppleIdMismatch: return "the appAppleId is not this app's"
        case .environmentNotAccepted: return "the environment is not accepted"
        }
    }
}

import CCrypto
import Foundation
import IssueCatalog
import Synchronization
import Wire

/// Verifies an `x5c` chain (leaf, intermediate, root) against an `X509_STORE` holding only the
/// configured roots (appstore.md "Version 2"). Built once; the store is only read afterwards and
/// libcrypto locks its own lookups, so one instance serves every worker thread.
package final class CertificateChainVerifier: @unchecked Sendable {
    package static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    package static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

    private let store: OpaquePointer
    private let roots: [X509Certificate]
    /// Chains already verified, by their `x5c` bytes: Apple signs months of payloads with one
    /// leaf, and parsing and verifying its chain again (three certificates, three signatures)
    /// was most of a notification's cost. Only the time check depends on the payload, and it is
    /// made against the window the chain was valid in.
    private let verified = Mutex<[[Data]: VerifiedChain]>([:])
    /// Distinct chains kept; past it the memo starts again (Apple rotates leaves rarely).
    static let verifiedChainLimit = 64

    init?(roots: AppleRootCertificates) {
        guard !roots.certificates.isEmpty, let store = X509_STORE_new() else { return nil }
        for root in roots.certificates where X509_STORE_add_cert(store, root.pointer) != 1 {
            // A duplicate root is reported as an error yet harmless; anything else is not.
            OpenSSLErrorQueue.clear()
        }
        self.store = store
        self.roots = roots.certificates
    }

    deinit { X509_STORE_free(store) }

    /// The leaf of the chain `x5c` (DER, leaf first), verified as `verify(chain:at:)` does at
    /// `time()`: from the memo when these exact bytes were verified before and `time()` falls in
    /// the window every certificate of the path is valid in; otherwise parsed (a certificate
    /// that does not parse is `malformedCertificate` before `time` is asked), verified and kept.
    func verifiedLeaf(x5c: [Data], at time: () throws(SignedDataVerificationError) -> Instant)
        throws(SignedDataVerificationError) -> X509Certificate {
        if let known = verified.withLock({ $0[x5c] }) {
            let at = try time()
            if known.window.contains(at) { return known.leaf }
        }
        var chain: [X509Certificate] = []
        for (index, der) in x5c.enumerated() {
            guard let certificate = X509Certificate(der: der) else { throw .malformedCertificate(index: index) }
            chain.append(certificate)
        }
        let at = try time()
        let root = try verify(chain: chain, at: at)
        // The path checked is leaf, intermediate and the configured root: their common validity.
        let windows = [chain[0].validity, chain[1].validity, root.validity].compactMap { $0 }
        if windows.count == 3, let start = windows.map(\.lowerBound).max(), let end = windows.map(\.upperBound).min(),
           start <= end, (start...end).contains(at) {
            verified.withLock { memo in
                if memo.count >= Self.verifiedChainLimit { memo.removeAll() }
                memo[x5c] = VerifiedChain(leaf: chain[0], window: start...end)
            }
        }
        return chain[0]
    }

    /// Checks, in order: leaf → intermediate → configured root valid at `time` (the untrusted set
    /// holds only the intermediate, so `x5c[2]` can never be a trust anchor); the chain is exactly
    /// those three; `x5c[2]` is that root or signed by its key (the Apple library's test vectors
    /// ship a re-issue of the test root there); the two Apple OIDs; a P-256 leaf key.
    /// Strict X.509 mode stays off: Apple's test certificates lack key identifiers.
    /// Returns the configured root the path ended at.
    @discardableResult
    func verify(chain: [X509Certificate], at time: Instant) throws(SignedDataVerificationError) -> X509Certificate {
        guard chain.count == JWSHeader.requiredChainLength else { throw .wrongCertificateCount(chain.count) }
        let (leaf, intermediate, claimedRoot) = (chain[0], chain[1], chain[2])
        let reachedRoot = try verifyPath(leaf: leaf, intermediate: intermediate, at: time)
        guard let rootKey = reachedRoot.publicKey, claimedRoot.isSigned(by: rootKey) else { throw .rootCertificateMismatch }
        guard intermediate.hasExtension(oid: Self.intermediateMarkerOID) else { throw .missingIntermediateMarker }
        guard leaf.hasExtension(oid: Self.leafMarkerOID) else { throw .missingLeafMarker }
        guard let leafKey = leaf.publicKey, ES256.isP256(leafKey) else { throw .leafKeyNotP256 }
        return reachedRoot
    }

    /// Runs `X509_verify_cert` and returns the configured root the path ended at.
    private func verifyPath(leaf: X509Certificate, intermediate: X509Certificate,
                            at time: Instant) throws(SignedDataVerificationError) -> X509Certificate {
        guard let context = X509_STORE_CTX_new(), let untrusted = OPENSSL_sk_new_null() else {
            throw .untrustedChain("out of memory")
        }
        defer { X509_STORE_CTX_free(context); OPENSSL_sk_free(untrusted); OpenSSLErrorQueue.clear() }
        guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediate.pointer)) > 0,
              X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
            throw .untrustedChain(OpenSSLErrorQueue.drain(or: "cannot start verification"))
        }
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), time_t(time.secondsSinceEpoch))
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let reason = String(cString: X509_verify_cert_error_string(Int(code)))
            switch code {
            case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID: throw .certificateNotValidAtSignedDate(reason)
            default: throw .untrustedChain(reason)
            }
        }
        guard let path = X509_STORE_CTX_get0_chain(context), OPENSSL_sk_num(path) == 3,
              let middle = OPENSSL_sk_value(path, 1), X509_cmp(OpaquePointer(middle), intermediate.pointer) == 0,
              let top = OPENSSL_sk_value(path, 2),
              let root = roots.first(where: { X509_cmp($0.pointer, OpaquePointer(top)) == 0 })
        else { throw .untrustedChain("chain is not leaf, intermediate, configured root") }
        return root
    }
}

/// A chain `CertificateChainVerifier` verified: its leaf (holding the key payloads are checked
/// with) and the instants at which every certificate of its path is valid.
struct VerifiedChain: @unchecked Sendable {
    let leaf: X509Certificate
    let window: ClosedRange<Instant>
}

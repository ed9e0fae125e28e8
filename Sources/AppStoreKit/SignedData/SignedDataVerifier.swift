import Entitle
import Foundation
import IssueCatalog
import OutboundHTTP
import Wire

/// Verifies App Store V2 signed data (appstore.md "Version 2 and signed transactions"; E2).
/// Thread-safe; build one at start-up and share it.
public final class SignedDataVerifier: Sendable {
    public let policy: SignedDataPolicy
    private let chainVerifier: CertificateChainVerifier
    private let headers = JWSHeaderMemo()
    private let clock: @Sendable () -> Instant

    /// Fails with `.noTrustedRoots` when no root is configured: V2 is then refused (http-api.md).
    /// `clock` is read only for a payload without `signedDate`, whose chain is checked "now" as
    /// Apple's library does (Apple's real payloads always carry one).
    public init(roots: AppleRootCertificates, policy: SignedDataPolicy,
                clock: @escaping @Sendable () -> Instant = SystemTime.now) throws(SignedDataVerificationError) {
        guard let chainVerifier = CertificateChainVerifier(roots: roots) else { throw .noTrustedRoots }
        self.chainVerifier = chainVerifier
        self.policy = policy
        self.clock = clock
    }

    /// Verifies one compact JWS of the given kind and returns the payload Apple signed.
    public func verify(_ compact: String, as kind: SignedPayloadKind) throws(SignedDataVerificationError) -> VerifiedPayload {
        try verifyWithClaims(compact, as: kind).verified
    }

    /// Verifies a notification's `signedPayload` and then its nested `signedTransactionInfo` and
    /// `signedRenewalInfo` the same way; they must name the notification's environment.
    public func verifyNotification(_ signedPayload: String) throws(SignedDataVerificationError) -> VerifiedNotification {
        let (outer, claims) = try verifyWithClaims(signedPayload, as: .notification)
        func nested(_ compact: String?, as kind: SignedPayloadKind) throws(SignedDataVerificationError) -> VerifiedPayload? {
            guard let compact else { return nil }
            let inner = try verify(compact, as: kind)
            guard inner.environment == outer.environment else { throw .environmentNotAccepted(inner.environment.rawValue) }
            return inner
        }
        return VerifiedNotification(notification: outer,
                                    transaction: try nested(claims.fields.signedTransactionInfo, as: .transaction),
                                    renewalInfo: try nested(claims.fields.signedRenewalInfo, as: .renewalInfo))
    }

    private func verifyWithClaims(_ compact: String, as kind: SignedPayloadKind)
        throws(SignedDataVerificationError) -> (verified: VerifiedPayload, claims: SignedPayloadClaims) {
        let jws = try split(compact)
        let header = try headers.header(jws.header, limits: policy.jsonLimits)
        // The claims are read before they are trusted only to learn the verification time.
        var claims: SignedPayloadClaims?
        let leaf = try chainVerifier.verifiedLeaf(x5c: header.certificateChain) { () throws(SignedDataVerificationError) in
            let read = try SignedPayloadClaims(payload: jws.payload, kind: kind, limits: policy.jsonLimits)
            claims = read
            return read.signedDate ?? clock()
        }
        guard let claims else { throw .malformedPayload("no claims") }
        guard jws.signature.count == ES256.rawSignatureLength else { throw .malformedSignature }
        guard let leafKey = leaf.publicKey,
              ES256.verify(rawSignature: Data(jws.signature), message: Data(jws.signingInput), publicKey: leafKey)
        else { throw .invalidSignature }
        let environment = try check(claims, kind: kind)
        let verified = VerifiedPayload(kind: kind, header: header, payload: Data(jws.payload),
                                       environment: environment, signedDate: claims.signedDate)
        return (verified, claims)
    }

    /// RFC 7515 §7.1 through Wire's splitter; an empty header or payload is no App Store JWS.
    private func split(_ compact: String) throws(SignedDataVerificationError) -> CompactJWS {
        let jws: CompactJWS
        do { jws = try CompactJWS(splitting: compact, maximumBytes: policy.maximumCompactLength) } catch {
            throw error == .tooLong ? .tooLarge(limit: policy.maximumCompactLength) : .malformedCompactSerialization
        }
        guard !jws.header.isEmpty, !jws.payload.isEmpty else { throw .malformedCompactSerialization }
        return jws
    }

    /// Bundle id (not in renewal info), app Apple id (production notifications), environment.
    private func check(_ claims: SignedPayloadClaims, kind: SignedPayloadKind) throws(SignedDataVerificationError) -> StoreEnvironment {
        if kind != .renewalInfo, claims.fields.bundleId != policy.bundleId { throw .bundleIdMismatch(found: claims.fields.bundleId) }
        let environment = StoreEnvironment(appleName: claims.fields.environment)
        if kind == .notification, environment == .production,
           policy.appAppleId == nil || claims.fields.appAppleId != policy.appAppleId {
            throw .appAppleIdMismatch(found: claims.fields.appAppleId)
        }
        guard let environment, policy.acceptedEnvironments.contains(environment) else {
            throw .environmentNotAccepted(claims.fields.environment)
        }
        return environment
    }
}

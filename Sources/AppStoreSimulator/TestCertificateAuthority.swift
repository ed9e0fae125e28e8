import AppStoreKit
import Foundation
import IssueCatalog
import Wire

/// A throw-away CA shaped like Apple's (root → intermediate with OID 1.2.840.113635.100.6.2.1 →
/// leaf with OID 1.2.840.113635.100.6.11.1), generated with libcrypto. The App Store simulator
/// signs V2 payloads with it; a gateway trusts it by listing `rootDER` in
/// `ISSUE_GATEWAY_APPLE_ROOT_CERTS`.
public struct TestCertificateAuthority: Sendable {
    /// Validity windows and markers; the defaults make a chain valid from `issuedAt` for ten years.
    public struct Options: Sendable {
        public var root: ClosedRange<Instant>
        public var intermediate: ClosedRange<Instant>
        public var leaf: ClosedRange<Instant>
        public var intermediateHasMarker = true
        public var leafHasMarker = true
        public var leafCurve: SigningKey.Curve = .p256

        public init(issuedAt: Instant, years: Int64 = 10) {
            let window = issuedAt...issuedAt.adding(seconds: years * 365 * 86_400)
            root = window
            intermediate = window
            leaf = window
        }
    }

    public enum Failure: Error, Equatable, Sendable { case keyGeneration, certificate(String) }

    public let rootKey: SigningKey
    public let root: X509Certificate
    public let intermediateKey: SigningKey
    public let intermediate: X509Certificate
    public let leafKey: SigningKey
    public let leaf: X509Certificate

    public init(options: Options, name: String = "issue-gateway App Store simulator") throws(Failure) {
        guard let rootKey = SigningKey(), let intermediateKey = SigningKey(),
              let leafKey = SigningKey(curve: options.leafCurve) else { throw .keyGeneration }
        let intermediateOIDs = options.intermediateHasMarker ? [CertificateChainVerifier.intermediateMarkerOID] : []
        let leafOIDs = options.leafHasMarker ? [CertificateChainVerifier.leafMarkerOID] : []
        do {
            root = try Self.builder("\(name) Root", ca: true, [], options.root, serial: 1)
                .issue(subjectKey: rootKey, issuer: nil)
            intermediate = try Self.builder("\(name) Intermediate", ca: true, intermediateOIDs, options.intermediate, serial: 2)
                .issue(subjectKey: intermediateKey, issuer: (root, rootKey))
            leaf = try Self.builder("\(name) Leaf", ca: false, leafOIDs, options.leaf, serial: 3)
                .issue(subjectKey: leafKey, issuer: (intermediate, intermediateKey))
        } catch {
            throw .certificate("\(error)")
        }
        self.rootKey = rootKey
        self.intermediateKey = intermediateKey
        self.leafKey = leafKey
    }

    private static func builder(_ name: String, ca: Bool, _ oids: [String], _ window: ClosedRange<Instant>,
                                serial: Int) -> CertificateBuilder {
        CertificateBuilder(commonName: name, isCertificateAuthority: ca, markerOIDs: oids,
                           notBefore: window.lowerBound, notAfter: window.upperBound, serialNumber: serial)
    }

    /// `x5c` as Apple sends it: leaf, intermediate, root.
    public var chainDER: [Data] { [leaf.der, intermediate.der, root.der] }

    /// The roots a gateway must trust to accept this CA's signatures.
    public var trustedRoots: AppleRootCertificates { AppleRootCertificates(certificates: [root]) }

    /// Signs a payload as Apple would (ES256, three-certificate `x5c`).
    public func sign(payload: Data) -> String? { JWSSigner.sign(payload: payload, key: leafKey, chain: chainDER) }

    /// Signs a JSON object (keys sorted, so the output is stable).
    public func sign(json: [String: Any]) -> String? {
        guard let payload = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]) else { return nil }
        return sign(payload: payload)
    }
}

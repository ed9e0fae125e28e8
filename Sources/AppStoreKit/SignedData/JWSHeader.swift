import Foundation
import Wire

/// The protected header of an App Store JWS, as far as verification reads it.
public struct JWSHeader: Sendable, Equatable {
    /// Always `ES256` once verified.
    public let algorithm: String
    /// `x5c`: leaf, intermediate, root — DER, in that order (RFC 7515 §4.1.6).
    public let certificateChain: [Data]
    /// `typ`, when present (Apple sends `JWT`); informative only.
    public let type: String?

    static let requiredAlgorithm = "ES256"
    static let requiredChainLength = 3

    /// Parses strictly and checks the header's shape: `alg` exactly ES256, no `crit`, `x5c` an
    /// array of exactly three standard-base64 strings (RFC 7515 §4.1.6: base64, not base64url).
    init(json: [UInt8], limits: JSONLimits) throws(SignedDataVerificationError) {
        let parsed: JSONObject?
        do { parsed = try StrictJSONObject.parse(json, limits: limits) } catch { throw .malformedHeader(error.description) }
        guard let fields = parsed else { throw .malformedHeader("not a JSON object") }
        let algorithm = fields["alg"]?.stringValue
        guard algorithm == Self.requiredAlgorithm else { throw .unsupportedAlgorithm(algorithm) }
        guard !fields.contains("crit") else { throw .unsupportedCriticalHeader }
        guard let chainField = fields["x5c"] else { throw .missingCertificateChain }
        guard let entries = chainField.arrayValue else { throw .malformedHeader("x5c is not an array") }
        guard entries.count == Self.requiredChainLength else { throw .wrongCertificateCount(entries.count) }
        var chain: [Data] = []
        for (index, entry) in entries.enumerated() {
            guard let text = entry.stringValue, let der = Data(base64Encoded: text), !der.isEmpty else {
                throw .malformedCertificate(index: index)
            }
            chain.append(der)
        }
        self.algorithm = Self.requiredAlgorithm
        self.certificateChain = chain
        self.type = fields["typ"]?.stringValue
    }
}

import GatewayCrypto
import Wire

/// A download token is a compact JWS (Wire's splitter) checked as tokens.md asks. The signing
/// input is the received bytes (RFC 7515 §5.2 step 8): the MAC is never computed over
/// re-serialised JSON.
extension CompactJWS {
    /// Step 1: size, three segments, strict base64url.
    public init(parsing token: String, policy: TokenPolicy = .standard) throws(TokenFailure) {
        do {
            self = try CompactJWS(splitting: token, maximumBytes: policy.maxTokenBytes)
        } catch {
            switch error {
            case .tooLong: throw .tooLong
            case .segments: throw .segments
            case .base64: throw .base64
            }
        }
    }

    /// The JSON part of step 2: the header as a JSON object with unique names.
    public func headerObject(policy: TokenPolicy = .standard) throws(TokenFailure) -> JSONObject {
        try Self.object(header, policy: policy, duplicate: .duplicateHeaderName, malformed: .headerJSON)
    }

    /// Step 3: HMAC-SHA-256 with a configured key over the received signing input, compared in
    /// constant time. A libcrypto failure counts as a mismatch (fail closed).
    public func hasValidHS256Signature(key: TokenKey) -> Bool {
        guard let mac = try? key.mac(signingInput) else { return false }
        return ConstantTime.equals(mac, signature)
    }

    /// The payload as a JSON object (step 4); call only after the signature checked out, so
    /// unauthenticated bytes never reach the parser beyond the header.
    public func payloadObject(policy: TokenPolicy = .standard) throws(TokenFailure) -> JSONObject {
        try Self.object(payload, policy: policy, duplicate: .duplicateClaimName, malformed: .claimsJSON)
    }

    /// A segment must be a JSON object with unique names (RFC 7515 §5.2 step 4, RFC 7519 §4).
    private static func object(_ bytes: [UInt8], policy: TokenPolicy, duplicate: TokenFailure,
                               malformed: TokenFailure) throws(TokenFailure) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONParser(limits: policy.segmentJSONLimits).parse(bytes: bytes)
        } catch {
            throw error.isDuplicateName ? duplicate : malformed
        }
        guard let object = value.objectValue else { throw malformed }
        return object
    }
}

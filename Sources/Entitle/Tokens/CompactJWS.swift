import Wire

/// A JWS in compact serialization (RFC 7515 §7.1), taken apart and checked as tokens.md step 1
/// asks, with its header parsed. The signing input is kept exactly as received (RFC 7515 §5.2
/// step 8): the MAC is never computed over re-serialised JSON.
public struct CompactJWS: Sendable {
    public let header: JSONObject
    public let payload: [UInt8]
    public let signature: [UInt8]
    /// `BASE64URL(header) '.' BASE64URL(payload)`, the received bytes.
    public let signingInput: [UInt8]

    /// Step 1 (size, three segments, strict base64url) and the JSON part of step 2.
    public init(parsing token: String, policy: TokenPolicy = .standard) throws(TokenFailure) {
        let bytes = Array(token.utf8)
        guard bytes.count <= policy.maxTokenBytes else { throw .tooLong }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .segments }
        guard let headerBytes = Base64URL.decode(utf8: segments[0]),
              let payload = Base64URL.decode(utf8: segments[1]),
              let signature = Base64URL.decode(utf8: segments[2]) else { throw .base64 }
        self.header = try CompactJWS.object(headerBytes, policy: policy,
                                            duplicate: .duplicateHeaderName, malformed: .headerJSON)
        self.payload = payload
        self.signature = signature
        self.signingInput = Array(bytes[..<(segments[1].endIndex)])
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
        try CompactJWS.object(payload, policy: policy, duplicate: .duplicateClaimName, malformed: .claimsJSON)
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

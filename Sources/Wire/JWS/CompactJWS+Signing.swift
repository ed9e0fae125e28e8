extension CompactJWS {
    /// A JWS in compact serialization (RFC 7515 §7.1): `BASE64URL(header) '.' BASE64URL(payload)
    /// '.' BASE64URL(signature)`, `sign` given the signing input (§5.1 step 5); nil when it could
    /// not sign. Every bearer token the gateway makes (Apple's Server API, APNs) is built here.
    public static func serialize(header: [UInt8], payload: [UInt8], sign: ([UInt8]) -> [UInt8]?) -> String? {
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        guard let signature = sign(Array(input.utf8)) else { return nil }
        return input + "." + Base64URL.encode(signature)
    }
}

import Wire

extension SigningPrivateKey {
    /// A compact JWS signed ES256 (RFC 7518 §3.4) with this key, which must be EC P-256; nil for
    /// another key or when libcrypto could not sign. The APNs provider token is one.
    public func compactES256(header: [UInt8], payload: [UInt8]) -> String? {
        guard kind == .ecP256 else { return nil }
        return CompactJWS.serialize(header: header, payload: payload) { input in
            (try? sign(input, digest: .sha256)).flatMap(ECDSARawSignature.fromDER)
        }
    }
}

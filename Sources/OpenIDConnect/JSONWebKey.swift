import GatewayCrypto

/// One signing key of a JWKS (RFC 7517 §4), by the algorithm it verifies: an RSA key (`n`, `e`)
/// checks RS256, an EC P-256 key (`x`, `y`) checks ES256. A key never checks another algorithm
/// than its own (RFC 8725 §3.1: the key decides, not the token).
public enum JSONWebKey: Sendable {
    case rsa(RSAPublicKey)
    case p256(P256PublicKey)

    /// Whether `signature` is `algorithm` over `message` by this key.
    public func verifies(_ algorithm: String, signature: [UInt8], message: [UInt8]) -> Bool {
        switch (self, algorithm) {
        case (.rsa(let key), "RS256"): key.verifyRS256(signature: signature, message: message)
        case (.p256(let key), "ES256"): key.verifyES256(signature: signature, message: message)
        default: false
        }
    }
}

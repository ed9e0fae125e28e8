import EdgeFormats
import Foundation
import GatewayCore
import GatewayCrypto

/// The `ISSUE_GATEWAY_EDGE_*` settings (tokens.md, CDN-native formats, Configuration): which
/// download URL format the token route hands out and its keys. Each is parsed alone by the
/// loader; whether they fit together (the format's key present and sound, a delivery the format
/// can do) is decided when the signer is built at start, which refuses to start otherwise.
public struct EdgeSettings: Sendable, Equatable {
    public var format = EdgeFormat.jws
    public var delivery = EdgeDelivery.query
    /// `kid:secret,…`, the first signs (nginx, Akamai).
    public var secrets: String?
    /// CloudFront's public key ID (`Key-Pair-Id`).
    public var keyId: String?
    /// A PEM private key file, RSA 2048 or EC P-256 (CloudFront).
    public var privateKeyPath: String?
    public var hash = MessageDigest.sha256
    /// Cookies' `domain`; nil: the CDN base's host.
    public var cookieDomain: String?

    public init() {}

    /// The signer for `cdnBase`; reads the private key file. The key's text and the secrets are
    /// never part of an error.
    package func signer(cdnBase: String) throws(StartError) -> EdgeURLSigner {
        var pem: String?
        if format == .cloudfront, let privateKeyPath {
            guard let text = try? String(contentsOfFile: privateKeyPath, encoding: .utf8) else {
                throw StartError(description: "ISSUE_GATEWAY_EDGE_PRIVATE_KEY: cannot read \(privateKeyPath)")
            }
            pem = text
        }
        do {
            return try EdgeURLSigner(format: format, delivery: delivery, cdnBase: cdnBase, secrets: secrets, keyId: keyId,
                                     privateKeyPEM: pem, hash: hash, cookieDomain: cookieDomain)
        } catch {
            throw StartError(description: error.description)
        }
    }
}

import GatewayCrypto
import Wire

/// Amazon CloudFront signed URLs and cookies (tokens.md, Amazon CloudFront): a policy
/// `{"Statement":[{"Resource":"R","Condition":{"DateLessThan":{"AWS:EpochTime":exp}}}]}` (no
/// whitespace, this key order), signed with RSA PKCS#1 v1.5 or ECDSA (DER) over its UTF-8 bytes
/// with the configured digest; policy and signature in CloudFront's base64 (`+`→`-`, `=`→`_`,
/// `/`→`~`).
public struct CloudFrontSigning: Sendable {
    public let key: SigningPrivateKey
    public let keyPairId: String
    /// `SHA256` or `SHA1` (`ISSUE_GATEWAY_EDGE_HASH`).
    public let digest: MessageDigest

    public init(key: SigningPrivateKey, keyPairId: String, digest: MessageDigest) throws(EdgeFormatError) {
        guard !keyPairId.isEmpty, keyPairId.utf8.count <= 64, keyPairId.utf8.allSatisfy(EdgeSecretList.isTokenCharacter) else {
            throw .invalidKeyId
        }
        guard digest == .sha256 || digest == .sha1 else { throw .invalidKey("must be used with SHA256 or SHA1") }
        self.key = key
        self.keyPairId = keyPairId
        self.digest = digest
    }

    /// The policy text for `resource` (a URL, or a URL prefix ending in `*`). `resource` is an
    /// origin and an encoded path: nothing in it needs JSON escaping.
    public static func policy(resource: String, expires: Int64) -> String {
        #"{"Statement":[{"Resource":"\#(resource)","Condition":{"DateLessThan":{"AWS:EpochTime":\#(expires)}}}]}"#
    }

    /// Standard base64 with CloudFront's three substitutions. From base64url the `-` (for `+`)
    /// stays, `_` (for `/`) becomes `~`, and each padding `=` is written `_`.
    public static func encode(_ bytes: [UInt8]) -> String {
        let url = String(Base64URL.encode(bytes).map { $0 == "_" ? "~" : $0 })
        return url + String(repeating: "_", count: (3 - bytes.count % 3) % 3)
    }

    public func signature(of policy: String) throws(CryptoError) -> String {
        Self.encode(try key.sign(Array(policy.utf8), digest: digest))
    }

    /// `&Hash-Algorithm=SHA256` is sent (last) only for SHA-256; SHA-1 is CloudFront's default.
    private var hashParameter: String? { digest == .sha256 ? "SHA256" : nil }

    /// Canned policy, one signing per asset: `R` + `?Expires=…&Signature=…&Key-Pair-Id=…`.
    public func cannedURL(resource: String, expires: Int64) throws(CryptoError) -> String {
        let signature = try signature(of: Self.policy(resource: resource, expires: expires))
        return resource + "?Expires=\(expires)&Signature=\(signature)&Key-Pair-Id=\(keyPairId)"
            + (hashParameter.map { "&Hash-Algorithm=\($0)" } ?? "")
    }

    /// Custom policy cookies for every object under `resourcePrefix` (ending in `*`).
    public func cookies(resourcePrefix: String, expires: Int64, domain: String, path: String) throws(CryptoError)
        -> [EdgeCookie] {
        let policy = Self.policy(resource: resourcePrefix, expires: expires)
        var values = [("CloudFront-Policy", Self.encode(Array(policy.utf8))),
                      ("CloudFront-Signature", try signature(of: policy)),
                      ("CloudFront-Key-Pair-Id", keyPairId)]
        if let hashParameter { values.append(("CloudFront-Hash-Algorithm", hashParameter)) }
        return values.map { EdgeCookie(name: $0.0, value: $0.1, domain: domain, path: path) }
    }

    /// Query: a canned URL per asset. Cookie: plain URLs and folder cookies for the assets'
    /// longest common directory; an issue whose directory would be `/` (the whole distribution)
    /// is answered in query form instead.
    public func grant(origin: EdgeOrigin, paths: [String], expires: Int64, delivery: EdgeDelivery,
                      cookieDomain: String) throws(CryptoError) -> EdgeGrant {
        let directory = EdgePath.encode(EdgePath.commonDirectory(paths))
        guard delivery == .cookie, directory != "/" else {
            var urls: [String] = []
            for path in paths { urls.append(try cannedURL(resource: origin.url(path), expires: expires)) }
            return EdgeGrant(urls: urls)
        }
        return EdgeGrant(urls: paths.map(origin.url),
                         cookies: try cookies(resourcePrefix: origin.text + directory + "*", expires: expires,
                                              domain: cookieDomain, path: directory))
    }
}

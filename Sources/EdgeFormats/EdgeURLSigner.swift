import GatewayCrypto

/// The configured download URL format (tokens.md, CDN-native formats), built once at start from
/// the `ISSUE_GATEWAY_EDGE_*` settings: it turns an issue's asset paths and the JWS's `exp` into
/// the URLs (and cookies) of the token route's answer. One deadline for all: the JWS's `exp`.
public struct EdgeURLSigner: Sendable {
    enum Method: Sendable {
        case jws
        case nginx(NginxSecureLink)
        case akamai(AkamaiEdgeAuth)
        case cloudfront(CloudFrontSigning)
        case bunny(BunnyTokenAuth)
        case cloudflare(CloudflareTimedHMAC)
    }

    public let format: EdgeFormat
    public let delivery: EdgeDelivery
    public let origin: EdgeOrigin
    public let cookieDomain: String
    private let method: Method

    /// What the settings hold; `privateKeyPEM` is the text of `ISSUE_GATEWAY_EDGE_PRIVATE_KEY`'s
    /// file (the caller reads it). Throws when the format lacks its key, a key does not parse or
    /// is of the wrong kind, or `cookie` is asked of a format without cookies.
    public init(format: EdgeFormat, delivery: EdgeDelivery, cdnBase: String, secrets: String? = nil,
                keyId: String? = nil, privateKeyPEM: String? = nil, hash: MessageDigest = .sha256,
                cookieDomain: String? = nil) throws(EdgeFormatError) {
        guard let origin = EdgeOrigin(cdnBase) else { throw .invalidOrigin }
        guard delivery == .query || format.allowsCookies else { throw .cookiesNotSupported(format) }
        if let cookieDomain {
            guard !cookieDomain.isEmpty, cookieDomain.utf8.allSatisfy({ EdgeSecretList.isTokenCharacter($0) || $0 == UInt8(ascii: ".") }) else {
                throw .invalidCookieDomain
            }
        }
        func secretList() throws(EdgeFormatError) -> EdgeSecretList {
            guard let secrets else { throw .missing("ISSUE_GATEWAY_EDGE_SECRETS") }
            return try EdgeSecretList(parsing: secrets)
        }
        switch format {
        case .jws: method = .jws
        case .nginxSecureLink: method = .nginx(try NginxSecureLink(secrets: try secretList()))
        case .akamaiEdgeAuth: method = .akamai(try AkamaiEdgeAuth(secrets: try secretList()))
        case .bunny: method = .bunny(try BunnyTokenAuth(secrets: try secretList()))
        case .cloudflareHMAC: method = .cloudflare(try CloudflareTimedHMAC(secrets: try secretList()))
        case .cloudfront:
            guard let privateKeyPEM else { throw .missing("ISSUE_GATEWAY_EDGE_PRIVATE_KEY") }
            guard let keyId else { throw .missing("ISSUE_GATEWAY_EDGE_KEY_ID") }
            let key: SigningPrivateKey
            do { key = try SigningPrivateKey(pem: privateKeyPEM) } catch { throw .invalidKey(error.description) }
            method = .cloudfront(try CloudFrontSigning(key: key, keyPairId: keyId, digest: hash))
        }
        self.format = format
        self.delivery = delivery
        self.origin = origin
        self.cookieDomain = cookieDomain ?? origin.host
    }

    /// The URLs (and cookies) of one issue. `jwsToken` rides in the query of `jws` URLs only,
    /// so a plain download manager can fetch them as they are; `issuedAt` (the JWS's `iat`) only
    /// in Cloudflare's, whose rule adds the lifetime.
    public func grant(paths: [String], issuedAt: Int64, expires: Int64, jwsToken: String) throws(CryptoError) -> EdgeGrant {
        switch method {
        case .jws:
            return EdgeGrant(urls: paths.map { origin.url($0) + "?token=" + jwsToken })
        case .nginx(let nginx):
            var urls: [String] = []
            for path in paths { urls.append(try nginx.url(origin: origin, path: path, expires: expires)) }
            return EdgeGrant(urls: urls)
        case .akamai(let akamai):
            return try akamai.grant(origin: origin, paths: paths, expires: expires, delivery: delivery, cookieDomain: cookieDomain)
        case .cloudfront(let cloudfront):
            return try cloudfront.grant(origin: origin, paths: paths, expires: expires, delivery: delivery,
                                        cookieDomain: cookieDomain)
        case .bunny(let bunny):
            var urls: [String] = []
            for path in paths { urls.append(try bunny.url(origin: origin, path: path, expires: expires)) }
            return EdgeGrant(urls: urls)
        case .cloudflare(let cloudflare):
            var urls: [String] = []
            for path in paths { urls.append(try cloudflare.url(origin: origin, path: path, issuedAt: issuedAt)) }
            return EdgeGrant(urls: urls)
        }
    }

    /// False when signing takes long enough to keep it off the event loop: an RSA signature per
    /// asset (about 1 ms each for RSA 2048). HMAC, MD5 and P-256 take microseconds.
    public var signsQuickly: Bool {
        if case .cloudfront(let cloudfront) = method { return cloudfront.key.kind != .rsa2048 }
        return true
    }
}

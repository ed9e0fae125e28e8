import GatewayCrypto
import Wire

/// Akamai Auth Token 2.0 (tokens.md, Akamai EdgeAuth 2.0): `exp={exp}~acl={p1}!{p2}…~hmac={mac}`,
/// the ACL every asset path exactly as it stands in the URL (percent-encoded), no wildcard;
/// `mac` lower-case hex HMAC-SHA256 keyed with the hex-decoded secret, over the token up to and
/// without `~hmac=…`. No `st` and no IP (tokens.md, Rules common to every format).
public struct AkamaiEdgeAuth: Equatable, Sendable {
    public static let tokenName = "__token__"
    public static let minimumKeyBytes = 16
    /// The hex-decoded secrets; the first signs (the Property Manager's encryption key, the
    /// second its transition key during a rotation).
    public let keys: [[UInt8]]

    public init(secrets: EdgeSecretList) throws(EdgeFormatError) {
        keys = try secrets.entries.map { entry throws(EdgeFormatError) in
            guard entry.secret.utf8.count % 2 == 0, let bytes = Hex.decode(entry.secret), bytes.count >= Self.minimumKeyBytes else {
                throw .invalidSecrets("kid \(entry.kid): an Akamai key is even-length hex of at least \(Self.minimumKeyBytes) bytes")
            }
            return bytes
        }
    }

    /// The ACL token for `encodedPaths` (each already percent-encoded, none holding `~`).
    public static func aclToken(encodedPaths: [String], expires: Int64, key: [UInt8]) throws(CryptoError) -> String {
        let body = "exp=\(expires)~acl=" + encodedPaths.joined(separator: "!")
        return body + "~hmac=" + (try hmac(body, key: key))
    }

    /// The URL token of one encoded path: `exp={exp}~hmac={mac}`, the MAC over
    /// `exp={exp}~url={path}` (the path is hashed, not sent: the edge puts in the one requested).
    public static func urlToken(encodedPath: String, expires: Int64, key: [UInt8]) throws(CryptoError) -> String {
        "exp=\(expires)~hmac=" + (try hmac("exp=\(expires)~url=\(encodedPath)", key: key))
    }

    /// Lower-case hex HMAC-SHA256 of `text` under `key`.
    public static func hmac(_ text: String, key: [UInt8]) throws(CryptoError) -> String {
        Hex.encode(try HMACSHA256.authenticationCode(key: key, message: Array(text.utf8)))
    }

    /// The URLs and, for cookie delivery, its `__token__` cookie. An asset whose encoded
    /// path holds `~` (the one ACL delimiter encoding leaves) cannot be listed in an ACL: it gets
    /// its own URL token in its query, whatever the delivery.
    public func grant(origin: EdgeOrigin, paths: [String], expires: Int64, delivery: EdgeDelivery,
                      cookieDomain: String) throws(CryptoError) -> EdgeGrant {
        let key = keys[0]
        let encoded = paths.map(EdgePath.encode)
        let listed = encoded.filter { !$0.contains("~") }
        let acl = listed.isEmpty ? nil : try Self.aclToken(encodedPaths: listed, expires: expires, key: key)
        var urls: [String] = []
        for path in encoded {
            let url = origin.text + path
            if path.contains("~") {
                urls.append(url + "?\(Self.tokenName)=" + (try Self.urlToken(encodedPath: path, expires: expires, key: key)))
            } else if delivery == .query, let acl {
                urls.append(url + "?\(Self.tokenName)=" + acl)
            } else {
                urls.append(url)
            }
        }
        guard delivery == .cookie, let acl else { return EdgeGrant(urls: urls) }
        let cookie = EdgeCookie(name: Self.tokenName, value: acl, domain: cookieDomain,
                                path: EdgePath.encode(EdgePath.commonDirectory(paths)))
        return EdgeGrant(urls: urls, cookies: [cookie])
    }
}

import GatewayCrypto
import Wire

/// nginx's `secure_link` module (tokens.md, nginx `secure_link`; ngx_http_secure_link_module):
/// `{base}{encoded path}?md5={H}&expires={exp}&kid={kid}`, H the MD5 of `{exp}{path} {secret}`
/// (decimal exp, the decoded path's UTF-8, one space, the kid's secret) in base64url without
/// padding. The edge's `secure_link_md5 "$secure_link_expires$uri $edge_secret"` hashes the same
/// bytes, `$uri` being the decoded path. Query only: nginx reads the hash from the URL.
public struct NginxSecureLink: Equatable, Sendable {
    public static let minimumSecretLength = 32
    /// The first signs; the others are listed for rotation only (the edge's key map holds them).
    public let keys: [EdgeSecretList.Entry]

    /// Secrets: at least 32 of `A-Z a-z 0-9 _ -`, used as text (tokens.md, Configuration).
    public init(secrets: EdgeSecretList) throws(EdgeFormatError) {
        keys = try secrets.entries.map { entry throws(EdgeFormatError) in
            guard entry.secret.utf8.count >= Self.minimumSecretLength,
                  entry.secret.utf8.allSatisfy(EdgeSecretList.isTokenCharacter) else {
                throw .invalidSecrets("kid \(entry.kid): an nginx secret is at least \(Self.minimumSecretLength) of A-Z a-z 0-9 _ -")
            }
            return entry
        }
    }

    /// H for one path, expiry and secret.
    public static func hash(path: String, expires: Int64, secret: String) throws(CryptoError) -> String {
        Base64URL.encode(try MD5Digest.hash(Array("\(expires)\(path) \(secret)".utf8)))
    }

    /// The signed URL of one asset with the first key.
    public func url(origin: EdgeOrigin, path: String, expires: Int64) throws(CryptoError) -> String {
        let key = keys[0]
        return origin.url(path) + "?md5=\(try Self.hash(path: path, expires: expires, secret: key.secret))"
            + "&expires=\(expires)&kid=\(key.kid)"
    }
}

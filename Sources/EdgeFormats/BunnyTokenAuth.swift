import GatewayCrypto
import Wire

/// Bunny CDN token authentication (tokens.md, Optional: Bunny; Bunny's token.py, SHA-256 form):
/// `{base}{encoded path}?token=HS256-{m}&expires={exp}`, `m` the unpadded base64url of
/// HMAC-SHA256(pull-zone key as text, `{encoded path}{exp}`): the path as it stands in the URL.
public struct BunnyTokenAuth: Equatable, Sendable {
    /// The pull zone's token keys as text; the first signs (Bunny holds one key at a time, so a
    /// rotation is: new key in Bunny and first here at once, the old kept for tokens in flight).
    public let keys: [String]

    public init(secrets: EdgeSecretList) throws(EdgeFormatError) {
        keys = try secrets.entries.map { entry throws(EdgeFormatError) in try EdgeSecretList.textSecret(entry) }
    }

    public static func token(encodedPath: String, expires: Int64, key: String) throws(CryptoError) -> String {
        "HS256-" + Base64URL.encode(try HMACSHA256.authenticationCode(key: Array(key.utf8), message: Array("\(encodedPath)\(expires)".utf8)))
    }

    public func url(origin: EdgeOrigin, path: String, expires: Int64) throws(CryptoError) -> String {
        let encoded = EdgePath.encode(path)
        return origin.text + encoded + "?token=" + (try Self.token(encodedPath: encoded, expires: expires, key: keys[0]))
            + "&expires=\(expires)"
    }
}

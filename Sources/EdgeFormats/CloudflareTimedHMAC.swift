import GatewayCrypto
import Wire

/// Cloudflare's WAF `is_timed_hmac_valid_v0` (tokens.md, Optional: Cloudflare):
/// `{base}{encoded path}?verify={iat}-{m}`, `m` the standard base64 of
/// HMAC-SHA256(secret as text, `{encoded path}{iat}`), percent-encoded. The rule holds the
/// lifetime (it must equal `ISSUE_GATEWAY_TOKEN_TTL`), so the URL carries the issue time.
public struct CloudflareTimedHMAC: Equatable, Sendable {
    public let keys: [String]

    public init(secrets: EdgeSecretList) throws(EdgeFormatError) {
        keys = try secrets.entries.map { entry throws(EdgeFormatError) in try EdgeSecretList.textSecret(entry) }
    }

    /// `{iat}-{m}` with `m` percent-encoded (`+`, `/`, `=` as `%2B`, `%2F`, `%3D`).
    public static func verifyValue(encodedPath: String, issuedAt: Int64, key: String) throws(CryptoError) -> String {
        let mac = try HMACSHA256.authenticationCode(key: Array(key.utf8), message: Array("\(encodedPath)\(issuedAt)".utf8))
        // Standard base64 (RFC 4648 §4) from base64url: `-`→`+`, `_`→`/`, padding restored.
        var standard = String(Base64URL.encode(mac).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        standard += String(repeating: "=", count: (3 - mac.count % 3) % 3)
        return "\(issuedAt)-" + EdgePath.encode(standard).replacing("/", with: "%2F")
    }

    public func url(origin: EdgeOrigin, path: String, issuedAt: Int64) throws(CryptoError) -> String {
        let encoded = EdgePath.encode(path)
        return origin.text + encoded + "?verify=" + (try Self.verifyValue(encodedPath: encoded, issuedAt: issuedAt, key: keys[0]))
    }
}

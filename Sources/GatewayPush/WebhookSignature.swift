import Entitle
import GatewayCore
import GatewayCrypto
import Wire

/// `Issue-Gateway-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` (http-api.md, pushes and
/// webhooks): the receiver recomputes the MAC with the shared secret over the timestamp, a dot and
/// the raw body, compares in constant time and refuses old timestamps (replays).
package enum WebhookSignature {
    package static let headerName = "Issue-Gateway-Signature"

    package static func header(body: [UInt8], secret: HMACSHA256.PreparedKey, unixSeconds: Int64) throws(CryptoError) -> String {
        let mac = try secret.authenticationCode(message: Array("\(unixSeconds).".utf8) + body)
        return "t=\(unixSeconds),v1=\(Hex.encode(mac))"
    }
}

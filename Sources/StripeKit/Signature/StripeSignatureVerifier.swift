import GatewayCrypto
import Wire

/// Proof that a webhook came from Stripe (E2, E23; stripe.md, Webhooks and proof of origin): the
/// HMAC-SHA256 of `t`, `.`, and the raw body under an endpoint secret equals one of the header's
/// `v1` values (any configured secret: a rolled secret overlaps with its successor), compared in
/// constant time, and `t` lies within the tolerance of now, in the past or the future.
public struct StripeSignatureVerifier: Sendable {
    /// Stripe's libraries' DEFAULT_TOLERANCE; the gateway applies it to the future too.
    public static let defaultToleranceSeconds: Int64 = 300

    private let keys: [HMACSHA256.PreparedKey]
    public let toleranceSeconds: Int64

    /// `secrets`: the `whsec_…` endpoint secrets, used as given (their UTF-8 bytes are the key).
    public init(secrets: [String], toleranceSeconds: Int64 = defaultToleranceSeconds) throws(CryptoError) {
        var keys: [HMACSHA256.PreparedKey] = []
        for secret in secrets where !secret.isEmpty { keys.append(try HMACSHA256.PreparedKey(key: Array(secret.utf8))) }
        self.keys = keys
        self.toleranceSeconds = toleranceSeconds
    }

    public var hasSecrets: Bool { !keys.isEmpty }

    /// Passes when the body is Stripe's; throws why not otherwise.
    public func verify(header: String?, body: [UInt8], now: Instant) throws(StripeSignatureError) {
        guard let header, !keys.isEmpty else { throw .missing }
        let parsed = try StripeSignatureHeader(parsing: header)
        var signed = Array(parsed.timestampText.utf8)
        signed.append(UInt8(ascii: "."))
        signed.append(contentsOf: body)
        var matched = false
        for key in keys {
            guard let expected = try? key.authenticationCode(message: signed) else { continue }
            // Every candidate is compared, so the time taken says nothing about which one matched.
            for candidate in parsed.signatures where ConstantTime.equals(candidate, expected) { matched = true }
        }
        guard matched else { throw .noMatch }
        let offset = parsed.timestamp - now.secondsSinceEpoch
        guard abs(offset) <= toleranceSeconds else { throw .outsideTolerance(secondsFromNow: offset) }
    }

    /// The header Stripe would send for `body` at `timestamp` under `secret` (the simulator and tests).
    public static func header(for body: [UInt8], timestamp: Int64, secrets: [String]) throws(CryptoError) -> String {
        var signed = Array(String(timestamp).utf8)
        signed.append(UInt8(ascii: "."))
        signed.append(contentsOf: body)
        var parts = ["t=\(timestamp)"]
        for secret in secrets {
            parts.append("v1=" + Hex.encode(try HMACSHA256.authenticationCode(key: Array(secret.utf8), message: signed)))
        }
        return parts.joined(separator: ",")
    }
}

import Foundation
import GatewayCore
import GatewayCrypto
import Synchronization
import Wire

/// APNs token-based authentication: a JWT signed ES256 with the team's `.p8` key, header
/// `{"alg":"ES256","kid":<key id>}`, claims `{"iss":<team id>,"iat":<now>}` (Apple: "Establishing a
/// token-based connection to APNs"). Apple refuses a token older than an hour and one renewed more
/// than once every 20 minutes, so one is reused for `refreshAfter` (50 minutes) and then replaced.
package final class APNsProviderToken: Sendable {
    package static let refreshAfterSeconds: Int64 = 50 * 60

    private let key: SigningPrivateKey
    private let keyId: String
    private let teamId: String
    private let current = Mutex<(token: String, issuedAt: Int64)?>(nil)

    package struct LoadError: Error, CustomStringConvertible {
        package var description: String
    }

    package init(keyPEM: String, keyId: String, teamId: String) throws(LoadError) {
        guard let key = try? SigningPrivateKey(pem: keyPEM), key.kind == .ecP256 else {
            throw LoadError(description: "the APNs key is not a PKCS#8 PEM P-256 private key (.p8)")
        }
        self.key = key; self.keyId = keyId; self.teamId = teamId
    }

    /// The token to send at `unixSeconds`: the kept one while it is young enough, else a new one.
    /// `renew` forces a new one (APNs said `ExpiredProviderToken`).
    package func bearer(unixSeconds: Int64, renew: Bool = false) -> String? {
        current.withLock { kept in
            if !renew, let kept, unixSeconds - kept.issuedAt < Self.refreshAfterSeconds, unixSeconds >= kept.issuedAt {
                return kept.token
            }
            guard let token = sign(issuedAt: unixSeconds) else { return nil }
            kept = (token, unixSeconds)
            return token
        }
    }

    private func sign(issuedAt: Int64) -> String? {
        var header = JSONWriter(), claims = JSONWriter()
        header.object { w in
            w.field("alg", "ES256")
            w.field("kid", keyId)
        }
        claims.object { w in
            w.field("iss", teamId)
            w.field("iat", Int(issuedAt))
        }
        return key.compactES256(header: header.bytes, payload: claims.bytes)
    }
}

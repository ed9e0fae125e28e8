import AppStoreKit
import Foundation
import IssueCatalog
import Wire

/// The simulator's check of a Server API bearer token (appstore.md "Auth"): ES256 over the
/// registered key, `kid`/`iss` when registered, `aud` `appstoreconnect-v1`, this app's `bid`,
/// issued no later than now and expiring within an hour of issue. Apple answers a bad token
/// with a bare 401, so this only says yes or no.
enum ServerAPITokenCheck {
    static let maximumLifetimeSeconds: Int64 = 3600
    /// Clocks differ a little; a token dated slightly ahead is taken.
    static let clockSkewSeconds: Int64 = 60

    static func accepts(_ authorization: String?, settings: ServerAPISettings, bundleId: String, now: Instant) -> Bool {
        guard let authorization, authorization.hasPrefix("Bearer "), let key = settings.publicKey,
              let jws = try? CompactJWS(splitting: String(authorization.dropFirst(7)), maximumBytes: 8192),
              let header = try? JSONParser().parse(bytes: jws.header).objectValue,
              let claims = try? JSONParser().parse(bytes: jws.payload).objectValue else { return false }
        guard header["alg"]?.stringValue == "ES256", header["typ"]?.stringValue == "JWT",
              let kid = header["kid"]?.stringValue, settings.keyId.map({ $0 == kid }) ?? true,
              let iss = claims["iss"]?.stringValue, settings.issuerId.map({ $0 == iss }) ?? true,
              claims["aud"]?.stringValue == ServerAPIToken.audience, claims["bid"]?.stringValue == bundleId,
              let iat = claims["iat"]?.integerValue, let exp = claims["exp"]?.integerValue else { return false }
        let seconds = now.millisecondsSinceEpoch / 1000
        guard iat <= seconds + clockSkewSeconds, exp > seconds, exp > iat, exp - iat <= maximumLifetimeSeconds else { return false }
        return key.verify(signature: Data(jws.signature), message: Data(jws.signingInput))
    }
}

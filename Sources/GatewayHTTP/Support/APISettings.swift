import DownloadTokens
import EdgeFormats
import GatewayCore

/// What the HTTP layer is configured with besides the core: token signing, download URLs and
/// per-client limits.
package struct APISettings: Sendable {
    package var tokenKeys: TokenKeySet
    package var tokenIssuer: String
    package var tokenTTLSeconds: Int
    /// The download URLs' format, keys and CDN base (tokens.md, CDN-native formats).
    package var edge: EdgeURLSigner
    /// Unauthenticated account creation per source address (fairness).
    package var accountCreation: KeyedRateLimiter<String>.Rate
    /// Failed code redemptions per account and per client (E22).
    package var redemptionFailures: KeyedRateLimiter<String>.Rate
    package var limits: APILimits
    /// The key of E29's verification hashes (HMAC-SHA-256); never stored in the database.
    package var verificationKey: [UInt8]
    /// E30: whose `X-Forwarded-For` is believed (`ISSUE_GATEWAY_TRUSTED_PROXIES`).
    package var trustedProxies: [NetworkRange] = []
    /// The largest subscriber list taken (`ISSUE_GATEWAY_SUBSCRIBER_LIST_MAX`).
    package var subscriberListMaxBytes: Int

    package init(tokenKeys: TokenKeySet, tokenIssuer: String, tokenTTLSeconds: Int, edge: EdgeURLSigner,
                 accountCreation: KeyedRateLimiter<String>.Rate, redemptionFailures: KeyedRateLimiter<String>.Rate,
                 limits: APILimits = .standard, verificationKey: [UInt8],
                 subscriberListMaxBytes: Int = APISettings.defaultSubscriberListMaxBytes, trustedProxies: [NetworkRange] = []) {
        self.tokenKeys = tokenKeys; self.tokenIssuer = tokenIssuer; self.tokenTTLSeconds = tokenTTLSeconds
        self.edge = edge; self.accountCreation = accountCreation; self.redemptionFailures = redemptionFailures
        self.limits = limits; self.verificationKey = verificationKey; self.subscriberListMaxBytes = subscriberListMaxBytes
        self.trustedProxies = trustedProxies
    }

    /// http-api.md: `ISSUE_GATEWAY_SUBSCRIBER_LIST_MAX` defaults to 1 GiB (a million rows of a
    /// few dozen bytes take well under a tenth of it).
    package static let defaultSubscriberListMaxBytes = 1 << 30
}

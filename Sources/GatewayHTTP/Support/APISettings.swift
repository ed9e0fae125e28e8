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

    package init(tokenKeys: TokenKeySet, tokenIssuer: String, tokenTTLSeconds: Int, edge: EdgeURLSigner,
                 accountCreation: KeyedRateLimiter<String>.Rate, redemptionFailures: KeyedRateLimiter<String>.Rate,
                 limits: APILimits = .standard) {
        self.tokenKeys = tokenKeys; self.tokenIssuer = tokenIssuer; self.tokenTTLSeconds = tokenTTLSeconds
        self.edge = edge; self.accountCreation = accountCreation; self.redemptionFailures = redemptionFailures
        self.limits = limits
    }
}

import Entitle
import Foundation
import OutboundHTTP

/// Where and how the gateway calls verifyReceipt (appstore.md "verifyReceipt"; http-api.md
/// Configuration). Timeouts and retry bounds are named here, never literals at the call site.
public struct VerifyReceiptConfiguration: Sendable, Equatable {
    public var productionURL: URL
    public var sandboxURL: URL
    /// The app's shared secret, sent as `password`; left out of the request when not configured
    /// (Apple then answers 21004 for auto-renewable subscriptions, which is reported as misconfiguration).
    public var sharedSecret: String?
    /// Per request, connect to last byte. Apple answers within a few seconds when healthy.
    public var requestTimeout: TimeInterval
    /// Retryable answers are 21005, 21009, 21100–21199, `is-retryable`, timeouts and transport
    /// failures; once spent the outcome is `.unavailable`. Environment redirects (21007/21008) do
    /// not count as attempts.
    public var retry: RetryPolicy
    /// Largest answer read: what `AppStoreParsers` take (`AppStoreParserLimits`), so nothing is
    /// downloaded only to be refused. A receipt with a long history is a few hundred KiB.
    public var maximumResponseBytes: Int
    /// 21007 → sandbox → 21008 → production … is cut off after this many redirects.
    public var maximumEnvironmentRedirects: Int

    public static let appleProductionURL = URL(string: "https://buy.itunes.apple.com/verifyReceipt")!
    public static let appleSandboxURL = URL(string: "https://sandbox.itunes.apple.com/verifyReceipt")!

    public init(productionURL: URL = appleProductionURL, sandboxURL: URL = appleSandboxURL, sharedSecret: String? = nil,
                requestTimeout: TimeInterval = 15, maximumAttempts: Int = 3, initialBackoff: TimeInterval = 0.5,
                maximumBackoff: TimeInterval = 4, maximumResponseBytes: Int = AppStoreParserLimits.maximumBodyBytes,
                maximumEnvironmentRedirects: Int = 2) {
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.sharedSecret = sharedSecret
        self.requestTimeout = requestTimeout
        retry = RetryPolicy(maximumAttempts: maximumAttempts, initialBackoff: initialBackoff, maximumBackoff: maximumBackoff)
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumEnvironmentRedirects = maximumEnvironmentRedirects
    }

    /// Named in the loud 21004 log line; the settings themselves are read by `Configuration`.
    public static let sharedSecretVariable = "ISSUE_GATEWAY_APPSTORE_SHARED_SECRET"

    func url(for environment: VerifyReceiptEndpoint) -> URL {
        environment == .production ? productionURL : sandboxURL
    }
}

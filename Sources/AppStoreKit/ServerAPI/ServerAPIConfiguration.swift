import Entitle
import Foundation
import OutboundHTTP

/// Where and how the gateway calls the App Store Server API (http-api.md Configuration,
/// `ISSUE_GATEWAY_APPSTORE_API_*`). Timeouts, retries and limits are named here, never literals
/// at the call site.
public struct ServerAPIConfiguration: Sendable, Equatable {
    public var productionURL: URL
    public var sandboxURL: URL
    /// Per request, connect to last byte.
    public var requestTimeout: TimeInterval
    /// One call, every retry and `Retry-After` wait included, ends by this long after it began.
    public var deadline: TimeInterval
    /// Retryable answers are 429, 5000001, 4040002, 4040004, 4040006, 5xx, timeouts and transport
    /// failures; the environment fallback does not count as an attempt.
    public var retry: RetryPolicy
    /// Largest answer read. A page holds at most 20 signed items of a few KiB each.
    public var maximumResponseBytes: Int
    /// Pages read per paged call (history, refunds, notification history): 20 items each.
    public var maximumPages: Int

    public static let appleProductionURL = URL(string: "https://api.storekit.apple.com")!
    public static let appleSandboxURL = URL(string: "https://api.storekit-sandbox.apple.com")!

    public init(productionURL: URL = appleProductionURL, sandboxURL: URL = appleSandboxURL,
                requestTimeout: TimeInterval = 15, deadline: TimeInterval = 45, maximumAttempts: Int = 4,
                initialBackoff: TimeInterval = 0.5, maximumBackoff: TimeInterval = 8,
                maximumResponseBytes: Int = 2 << 20, maximumPages: Int = 100) {
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.requestTimeout = requestTimeout
        self.deadline = deadline
        retry = RetryPolicy(maximumAttempts: maximumAttempts, initialBackoff: initialBackoff, maximumBackoff: maximumBackoff)
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumPages = max(1, maximumPages)
    }

    func baseURL(for environment: StoreEnvironment) -> URL {
        environment == .production ? productionURL : sandboxURL
    }
}

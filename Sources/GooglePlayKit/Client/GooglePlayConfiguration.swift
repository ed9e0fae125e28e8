import Foundation
import OutboundHTTP

/// Where and how patiently the gateway calls Google. The limits are named here so that each has
/// its reason beside it.
public struct GooglePlayConfiguration: Sendable {
    /// `ISSUE_GATEWAY_GOOGLE_API_URL`, no trailing slash.
    public var apiBaseURL: URL
    /// 429, 5xx and network failures: a few tries with backoff, as for Apple.
    public var retry: RetryPolicy
    /// One request; Google answers in well under a second when healthy.
    public var requestTimeout: TimeInterval
    /// One call, retries included: a reader's post waits on it, and Pub/Sub redelivers when the
    /// push answers 503 after this.
    public var deadline: TimeInterval
    /// Google's answers are small; a larger one is cut off while it arrives.
    public var maximumResponseBytes: Int
    /// An access token is used until this long before its `expires_in`, so a call never carries
    /// one that expires in flight.
    public var tokenRefreshMargin: TimeInterval
    /// Pages of `voidedpurchases.list` read in one pass (1000 entries each).
    public var maximumVoidedPages: Int

    public static let defaultAPIBaseURL = URL(string: "https://androidpublisher.googleapis.com")!

    public init(apiBaseURL: URL = defaultAPIBaseURL,
                retry: RetryPolicy = RetryPolicy(maximumAttempts: 4, initialBackoff: 0.25, maximumBackoff: 4),
                requestTimeout: TimeInterval = 10, deadline: TimeInterval = 25, maximumResponseBytes: Int = 4 << 20,
                tokenRefreshMargin: TimeInterval = 300, maximumVoidedPages: Int = 100) {
        self.apiBaseURL = apiBaseURL; self.retry = retry; self.requestTimeout = requestTimeout; self.deadline = deadline
        self.maximumResponseBytes = maximumResponseBytes; self.tokenRefreshMargin = tokenRefreshMargin
        self.maximumVoidedPages = maximumVoidedPages
    }
}

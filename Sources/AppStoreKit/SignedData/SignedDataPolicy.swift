import Entitle
import Wire

/// What a verified payload must claim (http-api.md Configuration: `ISSUE_GATEWAY_BUNDLE_ID`,
/// `ISSUE_GATEWAY_APP_APPLE_ID`, `ISSUE_GATEWAY_ACCEPT_SANDBOX`).
public struct SignedDataPolicy: Sendable, Equatable {
    /// Required: a gateway without a bundle id has nothing to check V2 payloads against and
    /// should not build a verifier at all.
    public var bundleId: String
    /// Checked on production notifications only (sandbox ones carry test values). When it is not
    /// configured, production notifications are refused, as Apple's own library does.
    public var appAppleId: Int64?
    public var acceptedEnvironments: Set<StoreEnvironment>
    /// Longest compact JWS read. Apple's largest, a notification with two nested JWS, is ~10 KiB.
    public var maximumCompactLength: Int

    public static let defaultMaximumCompactLength = 64 * 1024
    /// Apple's payloads nest a few levels (`data` in a notification); their size is already
    /// bounded by `maximumCompactLength`.
    public static let maximumJSONDepth = 16

    /// Header and claims never exceed the compact form they were decoded from.
    var jsonLimits: JSONLimits { JSONLimits(maxBytes: maximumCompactLength, maxDepth: Self.maximumJSONDepth) }

    public init(bundleId: String, appAppleId: Int64? = nil,
                acceptedEnvironments: Set<StoreEnvironment> = [.production, .sandbox],
                maximumCompactLength: Int = defaultMaximumCompactLength) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.acceptedEnvironments = acceptedEnvironments
        self.maximumCompactLength = maximumCompactLength
    }
}

import Wire

/// Which APNs endpoint a device token belongs to: a development build's token is only known to
/// the sandbox, a store build's only to production.
public enum PushEnvironment: String, Sendable, Hashable, CaseIterable {
    case production
    case sandbox
}

/// A reader's phone, as its app registered it: the APNs device token (lowercase hex) and the
/// environment that issued it. A token names one app install, so it belongs to one account.
public struct Device: Hashable, Sendable {
    public var accountId: String
    /// Lowercase hex, as APNs takes it in `/3/device/<token>`.
    public var apnsToken: String
    public var environment: PushEnvironment
    public var platform: String
    public var registeredAt: Instant

    public init(accountId: String, apnsToken: String, environment: PushEnvironment, platform: String = "ios",
                registeredAt: Instant) {
        self.accountId = accountId; self.apnsToken = apnsToken; self.environment = environment
        self.platform = platform; self.registeredAt = registeredAt
    }
}

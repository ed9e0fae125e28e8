/// The gateway's configurable part of the rules.
public struct EntitlementPolicy: Hashable, Sendable {
    /// E3: count sandbox transactions (default true, so that App Review works).
    public var acceptSandbox: Bool
    /// E8: the gateway's own grace period, in days of 86,400,000 ms, used while billing retry is on
    /// and the App Store gives no grace period of its own. 0 turns it off.
    public var graceDays: Int

    public init(acceptSandbox: Bool = true, graceDays: Int = 0) {
        self.acceptSandbox = acceptSandbox
        self.graceDays = max(0, graceDays)
    }

    public static let `default` = EntitlementPolicy()

    /// Bounded so that a mis-typed configuration cannot overflow instant arithmetic.
    public static let maximumGraceDays = 366

    var graceMilliseconds: Int64 { Int64(min(graceDays, Self.maximumGraceDays)) * 86_400_000 }
}

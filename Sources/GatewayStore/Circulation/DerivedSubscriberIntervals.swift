import Entitle

/// E37: one account's subscriptions and their intervals as `SubscriptionIntervals` computed them
/// from its facts, to be written as `subscriber_intervals` rows.
public struct DerivedSubscriberIntervals: Sendable {
    public var accountId: String
    public var intervals: SubscriptionIntervals.Result

    public init(accountId: String, intervals: SubscriptionIntervals.Result) {
        self.accountId = accountId; self.intervals = intervals
    }
}

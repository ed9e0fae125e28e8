import Foundation
import GatewayStore
import GooglePlayKit
import Lifecycle
import Metrics
import Wire

/// E28: acknowledges the Google Play purchases whose acknowledgement failed when they were
/// verified, retrying with backoff until Google confirms (or no longer knows the token), and keeps
/// `/metrics`' count of purchases still owed after a day. On a store several processes share, only
/// the holder of its job lease works.
public final class GooglePlayAcknowledger: ThreadBackedService {
    /// The first retry after the failed try at verification.
    static let firstRetrySeconds: Int64 = 60
    /// Retries back off to at most an hour apart: Google refunds after 3 days, so dozens of tries
    /// remain before then.
    static let maximumRetrySeconds: Int64 = 3600
    /// How often owed acknowledgements are looked at.
    static let interval: Duration = .seconds(30)
    /// E28: purchases owed longer than this are reported.
    static let reportAfterSeconds: Int64 = 86_400
    static let batch = 100

    private let store: any GatewayStore
    private let client: GooglePlayClient
    private let clock: any GatewayClock
    private let lease: (any JobLease)?
    private let owed: Gauge
    public let serviceThread = ServiceThread(name: "googleplay-acknowledger")

    package init(store: any GatewayStore, client: GooglePlayClient, clock: any GatewayClock, metrics: Metrics) {
        self.store = store; self.client = client; self.clock = clock
        lease = (store as? any SharedGatewayStore)?.makeJobLease(name: "googleplay-acknowledger")
        owed = metrics.gauge("issue_gateway_googleplay_unacknowledged_purchases",
                             help: "Google Play purchases verified more than a day ago and not yet acknowledged (E28)")
    }

    /// One pass: every acknowledgement due, then the count of those owed after a day. Returns how
    /// many Google confirmed.
    @discardableResult
    package func pass() -> Int {
        let now = clock.now()
        var confirmed = 0
        let due = (try? store.pendingAcknowledgements(dueBy: now, limit: Self.batch)) ?? []
        for var pending in due {
            do {
                try client.acknowledge(packageName: pending.packageName, subscription: pending.isSubscription,
                                       productId: pending.productId, token: pending.purchaseToken)
                try? store.deletePendingAcknowledgement(packageName: pending.packageName, purchaseToken: pending.purchaseToken)
                confirmed += 1
            } catch .notFound, .gone {
                // Nothing left to acknowledge: Google refunded it or forgot it.
                try? store.deletePendingAcknowledgement(packageName: pending.packageName, purchaseToken: pending.purchaseToken)
            } catch {
                pending.attempts += 1
                let wait = min(Self.firstRetrySeconds << min(Int64(pending.attempts), 16), Self.maximumRetrySeconds)
                pending.nextAttempt = now.adding(seconds: wait)
                try? store.rescheduleAcknowledgement(pending)
            }
        }
        if let count = try? store.unacknowledgedCount(seenBefore: now.adding(seconds: -Self.reportAfterSeconds)) {
            owed.set(count)
        }
        return confirmed
    }

    public func run(until stop: StopToken) {
        defer { lease?.release() }
        while !stop.isStopRequested {
            if lease?.tryHold() ?? true { pass() }
            if stop.pause(for: Self.interval) { break }
        }
    }
}

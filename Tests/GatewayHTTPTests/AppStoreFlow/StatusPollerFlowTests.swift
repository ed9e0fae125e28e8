import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import Testing
import GatewayTesting

/// The status poller re-verifies stored receipts near expiry against the simulator.
/// Passes are run directly with the test clock; the poller's thread is never started.
@Suite struct StatusPollerFlowTests {
    private static let dayBeforeExpiry = FlowFixtures.at("2026-04-09T12:00:00Z")

    @Test func scriptedRenewalAppearsAfterAPass() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        let poller = try #require(flow.runtime.poller)
        try flow.simulator.addTransaction(FlowFixtures.renewal, to: FlowFixtures.production)
        flow.clock.set(Self.dayBeforeExpiry)
        #expect(poller.pass() == 0)
        #expect(flow.runtime.core.counters.pollChecks.value == 1)
        #expect(try flow.storedTransactionIds(reader) == ["10000", "10001", "10002", "10003"])
        #expect(try flow.subscriptions(reader).first?["expiresAt"] as? String == "2026-05-10T00:00:00.000Z")
    }

    @Test func subscriptionFarFromExpiryIsNotPolled() throws {
        let flow = try AppStoreFlow()
        _ = try flow.subscribedReader()
        let requestsBefore = flow.simulator.requests.count
        #expect(try #require(flow.runtime.poller).pass() == 0)
        #expect(flow.runtime.core.counters.pollChecks.value == 0)
        #expect(flow.simulator.requests.count == requestsBefore)
    }

    @Test func refundFoundByThePollerTakesTheIssueAway() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        flow.clock.set(Self.dayBeforeExpiry)
        #expect(try #require(flow.runtime.poller).pass() == 0)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }

    /// E4: the owner the poller read before its slow call to Apple may have lost the subscription
    /// meanwhile; the poll must not hand it back (nor anything else the receipt holds).
    @Test func aPollNeverMovesASubscriptionBackToTheOwnerItReadBefore() throws {
        let flow = try AppStoreFlow()
        let first = try flow.subscribedReader()
        let second = try flow.newReader()
        try #require(try flow.sendReceipt(FlowFixtures.production, for: second).status == 200)
        try #require(try flow.storedTransactionIds(first).isEmpty, "transfer (E4): the newer account has it")
        // A poller whose targets were read while the first reader still owned the subscription.
        let stale = StaleOwnerStore(flow.store, owner: first.id)
        let poller = StatusPoller(settings: .standard, store: stale, ingestion: flow.runtime.core.intake.appStore,
                                  clock: flow.clock, counters: flow.runtime.core.counters, work: flow.runtime.core.appStoreWork)
        flow.clock.set(Self.dayBeforeExpiry)
        #expect(poller.pass() == 0)
        #expect(flow.runtime.core.counters.pollChecks.value == 1)
        #expect(try flow.storedTransactionIds(first).isEmpty)
        #expect(try flow.storedTransactionIds(second) == ["10000", "10001", "10002"])
    }

    @Test func unreachableAppStoreIsACountedFailureAndStoresNothing() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        let before = try flow.storedTransactionIds(reader)
        flow.apple.stop()
        flow.clock.set(Self.dayBeforeExpiry)
        #expect(try #require(flow.runtime.poller).pass() == 1)
        #expect(flow.runtime.core.counters.pollFailures.value == 1)
        #expect(try flow.storedTransactionIds(reader) == before)
        let metrics = try flow.call("GET", "/metrics", bearer: nil)
        #expect(metrics.text.contains("issue_gateway_status_poll_failures_total 1"))
    }
}

/// A store whose poll targets name `owner`, as a read made before an ownership change would.
private final class StaleOwnerStore: GatewayStore {
    private let base: any GatewayStore
    private let owner: String

    init(_ base: any GatewayStore, owner: String) { self.base = base; self.owner = owner }

    func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        let found = try base.read(body)
        guard let targets = found as? [PollTarget] else { return found }
        return targets.map { target in
            var stale = target
            stale.accountId = owner
            return stale
        } as! R
    }

    func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try base.write(body)
    }
}

import Entitle
import GatewayStore
import IssueCatalog
import Lifecycle
import Synchronization
import Wire

/// Settings of the status poller: how often it looks, how far ahead, how many receipts
/// it re-verifies at once, and how it backs off while Apple is unreachable.
package struct StatusPollerSettings: Sendable {
    /// Pause between passes while Apple answers.
    package var interval: Duration = .seconds(300)
    /// Subscriptions whose latest expiry falls within this window ahead of now are re-verified…
    package var lookAhead: Duration = .seconds(24 * 3600)
    /// …and those that expired up to this long ago (renewals and recoveries that arrive late).
    package var lookBack: Duration = .seconds(3 * 24 * 3600)
    /// Receipts per pass.
    package var batch = 200
    /// Re-verifications in flight at once.
    package var concurrency = 4
    /// The longest pause after passes where Apple could not be reached (doubling from `interval`).
    package var maximumBackoff: Duration = .seconds(3600)
    /// On a shared store, how often a process that does not hold the poller's lease asks for it:
    /// when the holder dies, another takes over within this (a minute at most).
    package var leaseRetry: Duration = .seconds(15)

    package static let standard = StatusPollerSettings()
}

/// Asks Apple about subscriptions near expiry, in billing retry or in grace, so renewals,
/// recoveries and refunds arrive even when a notification is lost: with App Store Server API
/// credentials through Get All Subscription Statuses, otherwise by re-verifying the
/// stored latest receipt (E2: every fact still comes from Apple). Runs on its own thread, never
/// on an event loop.
public final class StatusPoller: ThreadBackedService {
    private let settings: StatusPollerSettings
    private let store: any GatewayStore
    private let ingestion: AppStoreIngestion
    private let clock: any GatewayClock
    private let counters: GatewayCounters
    /// Where each call to Apple runs (the App Store pool).
    private let work: WorkPool
    /// On a store several processes share, only the holder of this lease polls.
    private let lease: (any JobLease)?
    public let serviceThread = ServiceThread(name: "status-poller")

    package init(settings: StatusPollerSettings, store: any GatewayStore, ingestion: AppStoreIngestion,
                 clock: any GatewayClock, counters: GatewayCounters, work: WorkPool) {
        self.settings = settings; self.store = store; self.ingestion = ingestion
        self.clock = clock; self.counters = counters; self.work = work
        lease = (store as? any SharedGatewayStore)?.makeJobLease(name: "status-poller")
    }

    /// Whether this process polls now: always on a store it owns; on a shared one while it holds
    /// the poller's lease.
    public var holdsLease: Bool { lease?.tryHold() ?? true }

    /// One pass: returns how many re-verifications could not reach Apple.
    @discardableResult
    package func pass() -> Int {
        counters.pollRuns.increment()
        let now = clock.now()
        let targets: [PollTarget]
        // Apple's subscriptions only: the poller asks Apple, and Google Play's are Google's to tell.
        do {
            targets = try store.subscriptionsToPoll(expiringBefore: now.adding(milliseconds: Int64(settings.lookAhead.milliseconds)),
                                                    notBefore: now.adding(milliseconds: -Int64(settings.lookBack.milliseconds)),
                                                    limit: settings.batch, store: .appStore)
        } catch {
            counters.pollFailures.increment()
            return 1
        }
        // Checks in flight and checks that could not reach Apple, behind one lock: the pass waits
        // for a free slot before queueing a check, and for none in flight before it returns.
        let progress = Condition(PassProgress())
        let concurrency = max(1, settings.concurrency)
        let statuses = ingestion.serverAPI != nil
        // Apple is asked about App Store subscriptions only: other stores' ids mean nothing to it.
        for target in targets where target.subscription.store == .appStore {
            // With Server API credentials every subscription is asked about by id
            // (signed-data ones included); without, the stored latest receipt is re-verified.
            let check: PollCheck
            if statuses {
                check = .statuses(target.subscription)
            } else if let receipt = target.receiptData {
                check = .receipt(receipt)
            } else {
                continue
            }
            progress.withLock(when: { $0.inFlight < concurrency }) { $0.inFlight += 1 }
            let queued = work.submit { [self] in
                defer {
                    progress.withLock { $0.inFlight -= 1 }
                    progress.broadcast()
                }
                counters.pollChecks.increment()
                do throws(GatewayError) {
                    // For nobody, as a notification's facts: the owner read before the slow call
                    // to Apple may have lost the subscription since (E4), and a poll never brings
                    // facts on an account's behalf; they go to whoever owns them now.
                    let facts = switch check {
                    case .statuses(let key): try ingestion.statusFacts(key.originalTransactionId, in: key.environment)
                    case .receipt(let receipt): try ingestion.verifyReceipt(receipt)
                    }
                    try ingestion.intake.saveForOwners(facts, source: .poll)
                } catch {
                    counters.pollFailures.increment()
                    if error.isTransient { progress.withLock { $0.unreachable += 1 } }
                }
            }
            if !queued {
                // The pool is full or stopping: Apple was not asked, so the pass backs off as if
                // it could not be reached.
                counters.pollFailures.increment()
                progress.withLock { $0.inFlight -= 1; $0.unreachable += 1 }
            }
        }
        return progress.withLock(when: { $0.inFlight == 0 }) { $0.unreachable }
    }

    /// Passes until stopped; a pass in progress finishes its batch first. On a shared store,
    /// passes run only while this process holds the lease; the others ask for it every
    /// `leaseRetry`, and the holder gives it up when it stops.
    public func run(until stop: StopToken) {
        defer { lease?.release() }
        var pause = settings.interval
        var nextPass = ContinuousClock.now
        while !stop.isStopRequested {
            if ContinuousClock.now >= nextPass {
                if holdsLease {
                    let unreachable = pass()
                    pause = unreachable > 0 ? min(pause * 2, settings.maximumBackoff) : settings.interval
                    nextPass = .now + pause
                } else {
                    nextPass = .now + settings.leaseRetry
                }
            }
            if stop.pause(for: max(.zero, nextPass - .now)) { break }
        }
    }
}

/// One pass's checks: those queued and not finished, and those that could not reach Apple.
private struct PassProgress: Sendable {
    var inFlight = 0
    var unreachable = 0
}

/// How the poller asks Apple about one subscription.
private enum PollCheck: Sendable {
    /// App Store Server API: Get All Subscription Statuses by original transaction id.
    case statuses(SubscriptionKey)
    /// verifyReceipt on the stored latest receipt.
    case receipt(String)
}

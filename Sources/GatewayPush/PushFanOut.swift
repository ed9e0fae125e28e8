import Entitle
import Foundation
import GatewayCore
import GatewayStore
import IssueCatalog
import Lifecycle
import Wire

/// Works through push jobs: for a published issue, pages through the accounts that may be entitled
/// to it (`PushAudience`: owners of the products that grant it, grant holders, everyone for a free
/// issue; only accounts with devices), decides each from its answer (E12–E22: a subscriber in
/// grace gets it, a refunded one does not) and sends one background notification per device of
/// each entitled account. The answers are the ones the accounts' lists and tokens keep
/// (`OwnAnswers`): a reader who listed before the push costs it no read, and one pushed first
/// finds its answer in memory when it opens the app. A page at a time: memory holds one page,
/// never every account. The cursor is stored after each page, so a restart resumes after the last
/// page sent.
package final class PushFanOut: ThreadBackedService {
    package struct Settings: Sendable {
        /// Accounts per page (one read unit of work for their devices, one for the facts not kept).
        package var pageSize = 500
        /// How long a page may take before another process (or this one, restarted) takes the job
        /// over. It must exceed a page's worst case, or a second process sends the same page
        /// again: `APNsClient`'s 5 attempts × `CurlHTTP2Client`'s 10 s timeout + 1+2+4+8 s of
        /// backoff = 65 s (a test checks the bound).
        package var lease: Duration = .seconds(120)
        package var idlePoll: Duration = .seconds(1)
    }

    private let settings: Settings
    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let catalog: CatalogCache
    private let answers: OwnAnswers
    private let counters: PushCounters
    private let sender: any PushSender
    private let owner = "pushes-" + UUID().uuidString
    package let serviceThread = ServiceThread(name: "pushes")

    package init(settings: Settings = Settings(), store: any GatewayStore, clock: any GatewayClock, catalog: CatalogCache,
                 answers: OwnAnswers, counters: PushCounters, sender: any PushSender) {
        self.settings = settings; self.store = store; self.clock = clock; self.catalog = catalog
        self.answers = answers; self.counters = counters; self.sender = sender
    }

    /// The fan-out over the deliveries' store, clock, catalog and accounts' answers.
    package convenience init(settings: Settings = Settings(), delivery: DeliveryServices, sender: any PushSender) {
        self.init(settings: settings, store: delivery.store, clock: delivery.clock, catalog: delivery.catalog,
                  answers: delivery.answers, counters: delivery.counters, sender: sender)
    }

    package func run(until stop: StopToken) {
        while !stop.isStopRequested {
            let pause = (try? step(stop: stop)) ?? settings.idlePoll
            if pause > .zero, stop.pause(for: pause) { return }
        }
    }

    /// One page of the oldest open job; how long to pause before the next (0: more to do). A page
    /// cut short by `stop` is not recorded as sent: the next process sends it again.
    package func step(stop: StopToken? = nil) throws(StoreError) -> Duration {
        guard let job = try store.claimPushJob(owner: owner, now: clock.now(), lease: settings.lease) else {
            counters.pushJobsPending.set(0)
            return settings.idlePoll
        }
        counters.pushJobsPending.set(try store.openPushJobs().count)
        try catalog.reload()  // an issue published by another process is known here before it is pushed
        let state = catalog.state
        guard let issue = state.snapshot.issue(job.issue), issue.retractedAt == nil else {
            // Retracted (E16) or gone before its pushes went out: nothing to send.
            _ = try store.advancePushJob(job, cursor: nil, finished: true, now: clock.now(), lease: settings.lease)
            return .zero
        }
        let page = try store.pushCandidates(Self.audience(of: issue, state.snapshot), after: job.cursor, limit: settings.pageSize)
        try send(to: page, issue, state, stop)
        if stop?.isStopRequested == true { return .zero }
        _ = try store.advancePushJob(job, cursor: page.last, finished: page.count < settings.pageSize, now: clock.now(),
                                     lease: settings.lease)
        return .zero
    }

    /// Who may hold the issue: the products granting its publication or selling it alone.
    package static func audience(of issue: Issue, _ snapshot: CatalogSnapshot) -> PushAudience {
        let products = snapshot.products.filter { $0.grants.contains(issue.publicationId) || $0.issue == issue.ref }
        return PushAudience(publicationId: issue.publicationId, productIds: Set(products.map(\.storeProductId)).sorted(),
                            everyone: issue.free)
    }

    private func send(to accountIds: [String], _ issue: Issue, _ state: CatalogState, _ stop: StopToken?) throws(StoreError) {
        guard !accountIds.isEmpty else { return }
        let targets = try store.pushTargets(accountIds).filter { !$0.devices.isEmpty }
        let answers = try answers.answers(of: targets.map(\.accountId), publicationId: issue.publicationId, in: state)
        var pushes: [PushNotification] = []
        for target in targets where answers[target.accountId]?.entitlement(for: issue.ref)?.entitled == true {
            pushes += target.devices.map { PushNotification(device: $0, issue: issue.ref) }
        }
        for (push, outcome) in zip(pushes, sender.send(pushes, stop: stop)) {
            switch outcome {
            case .sent: counters.pushesSent.increment()
            case .unregistered(let since):
                counters.pushesUnregistered.increment()
                try store.forgetDeviceToken(push.device.apnsToken, unregisteredAt: since)
            case .rejected(let reason): counters.pushRejected(reason: reason)
            case .failed: counters.pushFailures.increment()
            }
        }
    }
}

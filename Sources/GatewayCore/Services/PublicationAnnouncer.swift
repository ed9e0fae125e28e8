import GatewayStore
import Lifecycle
import Wire

/// Announces issues when they become published (http-api.md, pushes and webhooks): a scheduled
/// issue when its `publishedAt` arrives (it sleeps until the next one, and looks again every
/// `poll` for issues other processes wrote), an issue published at once as soon as the route
/// that stored it calls `GatewayStore.announceDueIssues` itself. Each issue fires once, recorded
/// in the store with its `issue.published` event and push job, so a restart neither loses nor
/// repeats one.
package final class PublicationAnnouncer: ThreadBackedService {
    package static let standardPoll: Duration = .seconds(1)
    /// Issues announced per unit of work; more wait for the next round, at once.
    package static let batch = 100

    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let policy: EventPolicy
    private let counters: PushCounters
    private let poll: Duration
    package let serviceThread = ServiceThread(name: "publication-events")

    /// Records the baseline first (`preparePublicationEvents`), so that issues published before
    /// events were turned on are never announced.
    package init(store: any GatewayStore, clock: any GatewayClock, policy: EventPolicy, counters: PushCounters,
         poll: Duration = PublicationAnnouncer.standardPoll) throws(StoreError) {
        self.store = store; self.clock = clock; self.policy = policy; self.counters = counters; self.poll = poll
        try store.preparePublicationEvents(now: clock.now())
    }

    package func run(until stop: StopToken) {
        while !stop.isStopRequested {
            let pause = (try? step()) ?? poll
            if pause > .zero, stop.pause(for: pause) { return }
        }
    }

    /// Announces what is due; how long until the next look (0: more are due at once).
    package func step() throws(StoreError) -> Duration {
        let now = clock.now()
        let announced = try store.announceDueIssues(now: now, policy: policy, limit: Self.batch)
        counters.publicationsFired.increment(by: announced.count)
        if announced.count == Self.batch { return .zero }
        guard let next = try store.nextUnannouncedPublication(after: now) else { return poll }
        let until = Duration.milliseconds(next.millisecondsSinceEpoch - now.millisecondsSinceEpoch)
        return min(until, poll)
    }
}

/// Issues stored as published now, announced at once on the request's worker thread; a failure
/// here is left to `PublicationAnnouncer`'s next pass (the issue stays unannounced until then).
package struct PublicationAnnouncements: Sendable {
    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let events: EventPolicy
    private let counters: PushCounters

    package init(store: any GatewayStore, clock: any GatewayClock, events: EventPolicy, counters: PushCounters) {
        self.store = store; self.clock = clock; self.events = events; self.counters = counters
    }

    package func announceDue() {
        guard events.publicationEvents,
              let announced = try? store.announceDueIssues(now: clock.now(), policy: events, limit: PublicationAnnouncer.batch)
        else { return }
        counters.publicationsFired.increment(by: announced.count)
    }
}

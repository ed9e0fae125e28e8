import Entitle
import Foundation
import GatewayCore
import GatewayCrypto
import GatewayStore
import Lifecycle
import OutboundHTTP
import Wire

/// How webhooks go out: where, signed with what, and the named limits of each attempt.
package struct WebhookSettings: Sendable {
    package var url: URL
    package var secret: String
    package var timeout: TimeInterval = 10
    /// The receiver's answer is not used; more than this is cut off.
    package var maximumResponseBytes = 64 << 10
    /// 1 s, 2 s, 4 s … up to 10 minutes between attempts at one event (less jitter), until
    /// `deadLetterAfter`.
    package var backoff = RetryBackoff(base: .seconds(1), maximum: .seconds(600))
    /// An event still failing this long after its first failure is dead-lettered: set aside for an
    /// operator to replay, so that its account's later events go (`ISSUE_GATEWAY_WEBHOOK_DEAD_LETTER_AFTER`).
    package var deadLetterAfter: Duration = .seconds(72 * 3600)
    /// Deliverers working at once, each on its own thread: a receiver slow for one account holds
    /// one of them, never the others (`ISSUE_GATEWAY_WEBHOOK_CONCURRENCY`).
    package var concurrency = 4
    /// How long an attempt may hold an event before another process may take it (past the timeout).
    package var lease: Duration = .seconds(60)
    /// How often an idle deliverer looks for new events (also those other processes wrote).
    package var idlePoll: Duration = .milliseconds(500)

    package init(url: URL, secret: String, timeout: TimeInterval = 10, lease: Duration = .seconds(60), idlePoll: Duration = .milliseconds(500)) {
        self.url = url; self.secret = secret; self.timeout = timeout; self.lease = lease; self.idlePoll = idlePoll
    }
}

/// Delivers the store's outbox to the publisher's backend (http-api.md, pushes and webhooks): each
/// account's oldest event first, signed, retried with backoff and jitter until a 2xx, then
/// removed; one that keeps failing for `deadLetterAfter` is dead-lettered. A failing event delays
/// only its own account's later events. The outbox is in the store, so a restart loses nothing
/// and resends at most the events in flight (at least once). Runs on its own thread, never on an
/// event loop; `concurrency` of them share the outbox through leases.
package final class WebhookDeliverer: ThreadBackedService {
    private let settings: WebhookSettings
    private let key: HMACSHA256.PreparedKey
    private let store: any GatewayStore
    private let clock: any GatewayClock
    /// The receiver's kept session; tests may put a scripted receiver behind it.
    private let transport: any HTTPTransport
    private let counters: PushCounters
    /// This process's name on leases, so two processes never deliver one event at once.
    private let owner: String
    package let serviceThread = ServiceThread(name: "webhooks")

    private let jitter: @Sendable () -> Double

    /// `jitter` gives a fraction in 0..<1 for the backoff (tests may fix it).
    package init(settings: WebhookSettings, store: any GatewayStore, clock: any GatewayClock,
         transport: any HTTPTransport = URLSessionExchange(), counters: PushCounters,
         jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) throws(CryptoError) {
        self.settings = settings
        key = try HMACSHA256.PreparedKey(key: Array(settings.secret.utf8))
        self.store = store; self.clock = clock; self.transport = transport; self.counters = counters
        self.jitter = jitter
        owner = "webhooks-" + UUID().uuidString
    }

    package func run(until stop: StopToken) {
        while !stop.isStopRequested {
            let pause = (try? step()) ?? settings.idlePoll
            if pause > .zero, stop.pause(for: pause) { return }
        }
    }

    /// One attempt at the oldest due event heading its lane; how long to pause before the next look.
    package func step() throws(StoreError) -> Duration {
        let now = clock.now()
        switch try store.claimOutboxHead(owner: owner, now: now, lease: settings.lease) {
        case .empty:
            counters.outboxLength.set(0)
            return settings.idlePoll
        case .wait(let until):
            counters.outboxLength.set(try store.outboxLength())
            let wait = Duration.milliseconds(until.millisecondsSinceEpoch - now.millisecondsSinceEpoch)
            return min(wait, settings.idlePoll)
        case .deliver(let event):
            guard let failure = deliver(event, at: now) else {
                try store.outboxDelivered(event)
                counters.webhooksDelivered.increment()
                return .zero
            }
            counters.webhookFailures.increment()
            let failedAt = clock.now()
            let delay = settings.backoff.delay(afterFailures: event.attempts + 1, jitter: jitter())
            let next = failedAt.adding(milliseconds: Int64(delay.milliseconds))
            let stored = try store.outboxFailed(event, failedAt: failedAt, next: next, failure: failure,
                                                deadLetterAfter: settings.deadLetterAfter)
            if stored.deadLetteredAt != nil { counters.webhooksDeadLettered.increment() }
            return .zero
        }
    }

    /// Nil on a 2xx; otherwise what went wrong (any other answer, a timeout, no connection), a
    /// failure to retry.
    private func deliver(_ event: OutboxEvent, at now: Instant) -> String? {
        let body = Array(event.body.utf8)
        guard let signature = try? WebhookSignature.header(body: body, secret: key, unixSeconds: now.secondsSinceEpoch) else {
            return "not signed"
        }
        do {
            let answer = try transport.postJSON(Data(body), to: settings.url, headers: [WebhookSignature.headerName: signature],
                                                timeout: settings.timeout, maximumResponseBytes: settings.maximumResponseBytes)
            return (200...299).contains(answer.statusCode) ? nil : "HTTP \(answer.statusCode)"
        } catch {
            return "no answer"
        }
    }
}

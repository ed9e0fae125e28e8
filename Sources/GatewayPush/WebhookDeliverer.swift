import AppStoreKit
import Entitle
import Foundation
import GatewayCore
import GatewayCrypto
import GatewayStore
import Lifecycle
import Wire

/// How webhooks go out: where, signed with what, and the named limits of each attempt.
package struct WebhookSettings: Sendable {
    package var url: URL
    package var secret: String
    package var timeout: TimeInterval = 10
    /// The receiver's answer is not used; more than this is cut off.
    package var maximumResponseBytes = 64 << 10
    /// 1 s, 2 s, 4 s … up to 10 minutes between attempts at one event, for as long as it takes.
    package var backoff = RetryBackoff(base: .seconds(1), maximum: .seconds(600))
    /// How long an attempt may hold an event before another process may take it (past the timeout).
    package var lease: Duration = .seconds(60)
    /// How often an idle deliverer looks for new events (also those other processes wrote).
    package var idlePoll: Duration = .milliseconds(500)

    package init(url: URL, secret: String, timeout: TimeInterval = 10, lease: Duration = .seconds(60), idlePoll: Duration = .milliseconds(500)) {
        self.url = url; self.secret = secret; self.timeout = timeout; self.lease = lease; self.idlePoll = idlePoll
    }
}

/// Delivers the store's outbox to the publisher's backend (http-api.md, pushes and webhooks): the
/// oldest event first, signed, retried with backoff until a 2xx, then removed. The outbox is in the
/// store, so a restart loses nothing and resends at most the event in flight (at least once). Runs
/// on its own thread, never on an event loop.
package final class WebhookDeliverer: ThreadBackedService {
    private let settings: WebhookSettings
    private let key: HMACSHA256.PreparedKey
    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let transport: any WebhookTransport
    private let counters: PushCounters
    /// This process's name on leases, so two processes never deliver one event at once.
    private let owner: String
    package let serviceThread = ServiceThread(name: "webhooks")

    package init(settings: WebhookSettings, store: any GatewayStore, clock: any GatewayClock,
         transport: any WebhookTransport = URLSessionVerifyReceiptTransport(), counters: PushCounters) throws(CryptoError) {
        self.settings = settings
        key = try HMACSHA256.PreparedKey(key: Array(settings.secret.utf8))
        self.store = store; self.clock = clock; self.transport = transport; self.counters = counters
        owner = "webhooks-" + UUID().uuidString
    }

    package func run(until stop: StopToken) {
        while !stop.isStopRequested {
            let pause = (try? step()) ?? settings.idlePoll
            if pause > .zero, stop.pause(for: pause) { return }
        }
    }

    /// One attempt at the oldest due event; how long to pause before the next look.
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
            if deliver(event, at: now) {
                try store.outboxDelivered(event)
                counters.webhooksDelivered.increment()
                return .zero
            }
            counters.webhookFailures.increment()
            let delay = settings.backoff.delay(afterFailures: event.attempts + 1)
            try store.outboxFailed(event, next: clock.now().adding(milliseconds: Int64(delay.milliseconds)))
            return .zero
        }
    }

    /// True on a 2xx; any other answer, a timeout or no connection is a failure to retry.
    private func deliver(_ event: OutboxEvent, at now: Instant) -> Bool {
        let body = Array(event.body.utf8)
        guard let signature = try? WebhookSignature.header(body: body, secret: key, unixSeconds: now.secondsSinceEpoch) else {
            return false
        }
        let answer = try? transport.post(Data(body), to: settings.url, headers: [(WebhookSignature.headerName, signature)],
                                         timeout: settings.timeout, maximumResponseBytes: settings.maximumResponseBytes)
        return answer.map { (200...299).contains($0.statusCode) } ?? false
    }
}

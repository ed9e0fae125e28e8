import GatewayStore
import Wire

/// Webhook events that kept failing for the configured time, set aside so their accounts' later
/// events could go, and their replay (an extension of http-api.md, pushes and webhooks).
package struct DeadLetters: Sendable {
    /// Dead letters listed at once; the console shows the oldest first.
    package static let listLimit = 500

    private let store: any GatewayStore
    private let clock: any GatewayClock

    package init(store: any GatewayStore, clock: any GatewayClock) { self.store = store; self.clock = clock }

    package func list() throws(GatewayError) -> [OutboxEvent] {
        try stored { () throws(StoreError) in try store.deadLetters(limit: Self.listLimit) }
    }

    /// The event queued again for delivery; nil when no dead letter has this sequence.
    package func replay(_ seq: Int64) throws(GatewayError) -> OutboxEvent? {
        let now = clock.now()
        return try stored { () throws(StoreError) in try store.replayDeadLetter(seq: seq, now: now) }
    }
}

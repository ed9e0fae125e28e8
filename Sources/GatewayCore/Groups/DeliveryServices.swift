import GatewayStore

/// What pushes and webhooks are delivered from, off any request: the store their jobs and outbox
/// live in, the clock, the catalog and the accounts' answers (shared with their lists and tokens)
/// that decide who is entitled to a published issue, the push counters and which events the
/// store keeps.
package struct DeliveryServices: Sendable {
    package let store: any GatewayStore
    package let clock: any GatewayClock
    package let catalog: CatalogCache
    package let answers: OwnAnswers
    package let counters: PushCounters
    package let events: EventPolicy
}

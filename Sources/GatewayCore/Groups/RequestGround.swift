import GatewayCrypto

/// What every API request stands on besides the services it calls: who is asking
/// (`Authenticator`), the memory the API's own caches may take (`CacheBudget`), the clock,
/// randomness and identifiers for what a request creates, and the gateway's counters.
package struct RequestGround: Sendable {
    package let authenticator: Authenticator
    package let budget: CacheBudget
    package let clock: any GatewayClock
    package let random: any RandomBytesSource
    package let identifiers: Identifiers
    package let counters: GatewayCounters
}

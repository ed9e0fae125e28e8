@testable import GatewayConfiguration
import PostgresStore
import TestSupport
import Testing

/// Two gateways on one PostgreSQL schema, each with its own store (its own pool), caches and
/// change-feed follower, as two `serve` processes would have. The followers run while the pair
/// lives and are stopped and joined when it goes.
final class TwoGateways {
    let schema: TemporaryPostgresSchema
    let a: GatewayHarness
    let b: GatewayHarness

    init() throws {
        schema = try TemporaryPostgresSchema(ownRole: true)
        a = try GatewayHarness(store: try schema.open())
        b = try GatewayHarness(store: try schema.open())
        for harness in [a, b] { try #require(harness.runtime.changeFeedFollower).start() }
    }

    deinit {
        for harness in [a, b] {
            harness.runtime.changeFeedFollower?.stop()
            harness.runtime.changeFeedFollower?.join()
        }
    }
}

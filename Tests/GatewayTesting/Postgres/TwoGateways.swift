@testable import GatewayConfiguration
import PostgresStore
import TestSupport
import Testing

/// Two gateways on one PostgreSQL schema, each with its own store (its own pool), caches and
/// change-feed follower, as two `serve` processes would have. The followers run while the pair
/// lives and are stopped and joined when it goes.
package final class TwoGateways {
    package let schema: TemporaryPostgresSchema
    package let a: GatewayHarness
    package let b: GatewayHarness

    package init() throws {
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

/// Whether `condition` comes to hold within `limit` (it may throw: that counts as not yet): what
/// another gateway's change must do within a second.
package func within(_ limit: Duration = .seconds(1), _ condition: () throws -> Bool) -> Bool {
    eventually(seconds: Double(limit.components.seconds)) { (try? condition()) ?? false }
}

@testable import GatewayConfiguration
import TestSupport

/// The store a route test's gateway stands on: its SQLite file, or a fresh schema on the test
/// PostgreSQL cluster when `ISSUE_GATEWAY_TEST_DATABASE_URL` names one. Route tests of what a use
/// case persists run on both (`@Test(arguments: HarnessBackend.all)`).
package struct HarnessBackend: Sendable, CustomStringConvertible {
    package let description: String
    let postgres: Bool

    package static let sqlite = HarnessBackend(description: "SQLite", postgres: false)
    package static let postgresql = HarnessBackend(description: "PostgreSQL", postgres: true)
    package static let all: [HarnessBackend] = TemporaryPostgresSchema.clusterURL == nil ? [.sqlite] : [.sqlite, .postgresql]

    /// A gateway on this backend; the schema, if any, lives as long as the returned harness.
    package func harness(configure: (inout Configuration) -> Void = { _ in }) throws -> BackedHarness {
        guard postgres else { return BackedHarness(harness: try GatewayHarness(configure: configure), schema: nil) }
        let schema = try TemporaryPostgresSchema()
        return BackedHarness(harness: try GatewayHarness(store: try schema.open(), configure: configure), schema: schema)
    }
}

/// A harness and the PostgreSQL schema under it (dropped after the harness stops).
package final class BackedHarness: @unchecked Sendable {
    package let harness: GatewayHarness
    private let schema: TemporaryPostgresSchema?

    init(harness: GatewayHarness, schema: TemporaryPostgresSchema?) { self.harness = harness; self.schema = schema }

    deinit { harness.stop() }
}

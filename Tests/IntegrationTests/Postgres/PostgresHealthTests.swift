import Foundation
@testable import GatewayConfiguration
import PostgresStore
import TestSupport
import Testing
import GatewayTesting

/// `/healthz` on a PostgreSQL store: 503 in the spec's error shape while the database
/// cannot be reached, 200 again by itself once it can.
@Suite(.tags(.integration, .postgres), .postgresCluster)
struct PostgresHealthTests {
    @Test func healthIs503WhileTheDatabaseIsUnreachableAndRecoversByItself() throws {
        let schema = try TemporaryPostgresSchema(ownRole: true)
        let harness = try GatewayHarness(store: try schema.open())
        let health = harness.runtime.storeHealth
        try health.start()
        defer { health.stop(); health.join() }
        #expect(try harness.client.get("/healthz").status == 200)

        try schema.cutOff()
        try #require(eventually(seconds: 10) { (try? harness.client.get("/healthz").status) == 503 })
        let down = try harness.client.get("/healthz")
        #expect(down.errorCode == "storage_unavailable")
        #expect(!down.text.contains("role"))  // PostgreSQL's words stay in the log

        try schema.restore()
        try #require(eventually(seconds: 10) { (try? harness.client.get("/healthz").status) == 200 })
        #expect(try harness.client.get("/v1/publications").status == 200)
    }
}

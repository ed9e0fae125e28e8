import Testing
import TestSupport

/// The PostgreSQL half of the contract suite runs when `ISSUE_GATEWAY_TEST_DATABASE_URL` names a
/// server (`scripts/test` always starts one). Set but unreachable is a failure, never a skip.
@Suite struct PostgresAvailabilityTests {
    @Test(.postgresCluster)
    func theTestClusterIsReachable() throws {
        let schema = try TemporaryPostgresSchema()
        let store = try schema.open()
        #expect(try store.schemaVersion() >= 1)
    }
}

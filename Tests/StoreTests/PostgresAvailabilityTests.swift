import Testing
import TestSupport

/// The PostgreSQL half of the contract suite runs when `ISSUE_GATEWAY_TEST_DATABASE_URL` names a
/// server (`scripts/test` always starts one). Set but unreachable is a failure, never a skip.
@Suite struct PostgresAvailabilityTests {
    @Test(.enabled(if: TemporaryPostgresSchema.clusterURL != nil,
                   "ISSUE_GATEWAY_TEST_DATABASE_URL is not set: the PostgreSQL contract runs are skipped (scripts/test sets it)"))
    func theTestClusterIsReachable() throws {
        let schema = try TemporaryPostgresSchema(clusterURL: try #require(TemporaryPostgresSchema.clusterURL))
        let store = try schema.open()
        #expect(try store.schemaVersion() >= 1)
    }
}

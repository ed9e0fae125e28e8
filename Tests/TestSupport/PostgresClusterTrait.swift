import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a test or suite only where the throw-away PostgreSQL cluster is configured
    /// (`ISSUE_GATEWAY_TEST_DATABASE_URL`, which `scripts/test` always sets); elsewhere it is skipped.
    public static var postgresCluster: Self {
        .enabled(if: TemporaryPostgresSchema.clusterURL != nil,
                 "\(TemporaryPostgresSchema.urlVariable) is not set: the PostgreSQL runs are skipped (scripts/test sets it)")
    }
}

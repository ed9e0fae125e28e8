import Foundation
import Testing

/// `issue-gateway appstore migrate` at the command line; the migration itself is
/// tested against the simulator in `AppStoreMigrationFlowTests`.
@Suite struct CLIAppStoreTests {
    @Test func migrateNeedsServerAPICredentials() throws {
        let cli = CLIHarness()
        #expect(cli.run("appstore", "migrate") == 1)
        #expect(cli.err.contains("ISSUE_GATEWAY_APPSTORE_API_"))
        #expect(cli.run("appstore") == 2)
        #expect(cli.run("appstore", "migrate", "--help") == 0)
        #expect(cli.out.contains("usage: issue-gateway appstore migrate"))
    }
}

import Foundation
import Testing

/// `serve` refuses a bad setting before it opens anything: the operator reads the variable's name.
@Suite struct CLIServeSettingTests {
    @Test func aBadSettingFailsWithItsName() {
        let cli = CLIHarness()
        #expect(cli.run("serve", environment: ["ISSUE_GATEWAY_TOKEN_TTL": "7200"]) == 1)
        #expect(cli.err.contains("ISSUE_GATEWAY_TOKEN_TTL"))
        #expect(!FileManager.default.fileExists(atPath: cli.database.path))
    }
}

import DownloadTokens
import Entitle
import Foundation
@testable import GatewayConfiguration
import GatewayCrypto
import IssueCatalog
@testable import IssueGateway
import Testing
import Wire

/// `issue-gateway token verify`: the edge's decision for support staff, reading keys only.
@Suite struct CLITokenTests {
    static let secret = [UInt8](repeating: 0x33, count: 32)
    static let keys = "k1:" + Base64URL.encode(secret)
    static let path = "/content/monthly/2026-11/issue.pdf"

    private func token() throws -> String {
        let keySet = try TokenKeySet(keys: [TokenKey(kid: "k1", secret: Self.secret)])
        return try TokenSigner(keys: keySet, issuer: "issue-gateway", lifetimeSeconds: 300)
            .sign(subject: "acct-1", publication: "monthly", issue: "2026-11", paths: [Self.path],
                  now: SystemClock().now(), random: SystemRandom()).token
    }

    @Test func itAllowsTheTokensPathAndNamesTheReasonOtherwise() throws {
        let cli = CLIHarness()
        let token = try token()
        #expect(cli.run("token", "verify", token, "--path", Self.path, environment: ["ISSUE_GATEWAY_TOKEN_KEYS": Self.keys]) == 0)
        #expect(cli.out.contains("allow (204)") && cli.out.contains("acct-1"))
        #expect(cli.run("token", "verify", token, "--path", "/content/monthly/2026-10/issue.pdf",
                        environment: ["ISSUE_GATEWAY_TOKEN_KEYS": Self.keys]) == 1)
        #expect(cli.err.contains("403: pathNotGranted"))
        #expect(cli.run("token", "verify", token + "x", "--path", Self.path, environment: ["ISSUE_GATEWAY_TOKEN_KEYS": Self.keys]) == 1)
        #expect(cli.err.contains("401:"))
    }

    @Test func withoutKeysItFailsAndGeneratesNothing() throws {
        let cli = CLIHarness()
        #expect(cli.run("token", "verify", try token(), "--path", Self.path) == 1)
        #expect(cli.err.contains("no token keys"))
        #expect(!FileManager.default.fileExists(atPath: GeneratedSecrets.path(besideDatabase: cli.database.path)))
    }
}

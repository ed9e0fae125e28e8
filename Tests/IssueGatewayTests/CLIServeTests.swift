import Foundation
import Testing
import IssueCatalog
@testable import IssueGateway

@Suite struct CLIServeTests {
    @Test func serveImportsTheCatalogOnlyIntoAnEmptyStoreAndGeneratesTheAdminKeyOnce() throws {
        let cli = CLIHarness()
        let env = ["ISSUE_GATEWAY_CATALOG": CLIHarness.sampleCatalog]
        #expect(cli.run("serve", environment: env) == 0)
        #expect(cli.err.contains("imported"))
        #expect(cli.err.contains("generated an admin key"))
        let store = try SQLiteStore(path: cli.database.path)
        let revision = try store.catalogRevision()
        #expect(try store.loadCatalog().publications.count == 2)

        _ = try store.upsertPublication(Publication(id: "extra", title: "Extra"))
        #expect(cli.run("serve", environment: env) == 0)
        #expect(!cli.err.contains("imported"))
        #expect(!cli.err.contains("generated an admin key"))
        #expect(try store.catalogRevision() == revision + 1)

        let secrets = GeneratedSecrets.path(besideDatabase: cli.database.path)
        let attributes = try FileManager.default.attributesOfItem(atPath: secrets)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func serveWithCatalogNoneLeavesTheStoreEmpty() throws {
        let cli = CLIHarness()
        #expect(cli.run("serve", environment: ["ISSUE_GATEWAY_CATALOG": "none"]) == 0)
        #expect(try SQLiteStore(path: cli.database.path).loadCatalog().publications.isEmpty)
    }

    @Test func aBadSettingFailsWithItsName() {
        let cli = CLIHarness()
        #expect(cli.run("serve", environment: ["ISSUE_GATEWAY_TOKEN_TTL": "7200"]) == 1)
        #expect(cli.err.contains("ISSUE_GATEWAY_TOKEN_TTL"))
        #expect(!FileManager.default.fileExists(atPath: cli.database.path))
    }
}

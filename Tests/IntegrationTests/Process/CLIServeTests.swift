import CommandLineSupport
import Foundation
@testable import GatewayConfiguration
import IssueCatalog
@testable import IssueGateway
import SQLiteStore
import TestSupport
import Testing
import GatewayTesting

@Suite(.tags(.integration, .process)) struct CLIServeTests {
    @Test func serveImportsTheCatalogOnlyIntoAnEmptyStoreServesAndStopsOnSIGTERM() throws {
        let database = TemporaryDatabase()
        let env = ["ISSUE_GATEWAY_DATABASE": database.path, "ISSUE_GATEWAY_CATALOG": GatewayHarness.sampleCatalog]
        let first = try ServeProcess(environment: env)
        #expect(first.stderr.contains("imported"))
        #expect(first.stderr.contains("generated an admin key"))
        let publications = try first.get("/v1/publications")
        #expect(publications.status == 200 && publications.body.contains(#""id":"monthly""#))
        #expect(first.stop(with: SIGTERM) == 0)
        #expect(first.stderr.contains("stopped"))

        let store = try SQLiteStore(path: database.path)
        let revision = try store.catalogRevision()
        #expect(try store.loadCatalog().publications.count == 2)
        _ = try store.upsertPublication(Publication(id: "extra", title: "Extra"))

        let second = try ServeProcess(environment: env)
        #expect(!second.stderr.contains("imported"))
        #expect(!second.stderr.contains("generated an admin key"))
        #expect(try second.get("/v1/publications").body.contains(#""id":"extra""#))
        #expect(second.stop(with: SIGINT) == 0)
        #expect(try store.catalogRevision() == revision + 1)

        let secrets = GeneratedSecrets.path(besideDatabase: database.path)
        let attributes = try FileManager.default.attributesOfItem(atPath: secrets)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func serveWithCatalogNoneLeavesTheStoreEmpty() throws {
        let database = TemporaryDatabase()
        let server = try ServeProcess(environment: ["ISSUE_GATEWAY_DATABASE": database.path, "ISSUE_GATEWAY_CATALOG": "none"])
        #expect(try server.get("/v1/publications").body == #"{"publications":[]}"#)
        #expect(server.stop() == 0)
        #expect(try SQLiteStore(path: database.path).loadCatalog().publications.isEmpty)
    }

    @Test func anIssuePublishedWithTheCLIReachesARunningServer() throws {
        let database = TemporaryDatabase()
        let env = ["ISSUE_GATEWAY_DATABASE": database.path, "ISSUE_GATEWAY_CATALOG": GatewayHarness.sampleCatalog]
        let server = try ServeProcess(environment: env)
        defer { _ = server.stop() }
        let published = CommandLineTool.run(
            ["catalog", "publish", "--publication", "monthly", "--id", "2026-11b", "--title", "November extra",
             "--published-at", "2026-11-02T00:00:00Z", "--asset", "/content/monthly/2026-11b/issue.pdf"],
            environment: env, console: Console(out: { _ in }, err: { _ in }))
        #expect(published == 0)
        // The watcher looks once a second: await the issue, for at most 10 s.
        var listed = false
        for _ in 0..<100 where !listed {
            listed = try server.get("/v1/publications/monthly/issues").body.contains(#""id":"2026-11b""#)
            if !listed { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(listed)
    }
}

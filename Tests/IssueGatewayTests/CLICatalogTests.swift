import CommandLineSupport
import Foundation
@testable import GatewayConfiguration
import IssueCatalog
@testable import IssueGateway
import SQLiteStore
import Testing
import Wire

@Suite struct CLICatalogTests {
    @Test func importThenListTheMonthly() throws {
        let cli = CLIHarness()
        #expect(cli.run("catalog", "import", CLIHarness.sampleCatalog) == 0)
        #expect(cli.out.contains("2 publications"))
        #expect(cli.run("catalog", "list", "--publication", "monthly") == 0)
        let lines = cli.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("monthly\tThe Monthly Almanac") == true)
        #expect(lines.contains { $0.hasPrefix("2012-01\t2012-01-01T05:00:00.000Z\tpublished\tJanuary 2012") })
        #expect(lines.contains { $0.hasPrefix("2012-07\t2012-07-01T04:00:00.000Z\tpublished") }, "EDT in summer")
        #expect(lines.count == 1 + 180)
    }

    @Test func exportThenImportRoundTripsExactly() throws {
        let cli = CLIHarness()
        #expect(cli.run("catalog", "import", CLIHarness.sampleCatalog) == 0)
        let original = try SQLiteStore(path: cli.database.path).loadCatalog()
        let first = cli.temporaryFolder("export-1"), second = cli.temporaryFolder("export-2")
        #expect(cli.run("catalog", "export", first) == 0)

        let other = CLIHarness()
        #expect(other.run("catalog", "import", first) == 0)
        #expect(try SQLiteStore(path: other.database.path).loadCatalog() == original)
        #expect(other.run("catalog", "export", second) == 0)
        for name in ["products.json", "publications/monthly.json", "publications/weekly.json"] {
            let a = FileManager.default.contents(atPath: "\(first)/\(name)")
            #expect(a != nil && a == FileManager.default.contents(atPath: "\(second)/\(name)"), "\(name)")
        }
    }

    @Test func aBadFileIsRefusedWithFileAndFieldAndNothingImported() throws {
        let cli = CLIHarness()
        #expect(cli.run("catalog", "import", CLIHarness.sampleCatalog) == 0)
        let broken = cli.temporaryFolder("broken")
        #expect(cli.run("catalog", "export", broken) == 0)
        let weekly = "\(broken)/publications/weekly.json"
        let text = try String(contentsOfFile: weekly, encoding: .utf8)
        try text.replacingOccurrences(of: "\"Thursday 23 November 2023\"", with: "\"Renamed\"")
            .write(toFile: weekly, atomically: true, encoding: .utf8)
        let monthly = "\(broken)/publications/monthly.json"
        try String(contentsOfFile: monthly, encoding: .utf8)
            .replacingOccurrences(of: "/content/monthly/2015-03/issue.pdf", with: "/content/monthly/../2015-03/issue.pdf")
            .write(toFile: monthly, atomically: true, encoding: .utf8)

        #expect(cli.run("catalog", "import", broken) == 1)
        #expect(cli.err.contains("publications/monthly.json: issues[38].assets[0].path: \"/content/monthly/../2015-03/issue.pdf\" must not contain .."))
        let stored = try SQLiteStore(path: cli.database.path).loadCatalog()
        #expect(stored.issues.contains { $0.title == "Thursday 23 November 2023" }, "the valid weekly file was not imported either")
    }

    @Test func publishAddsCorrectsAndRefusesDuplicates() throws {
        let cli = CLIHarness()
        #expect(cli.run("catalog", "import", CLIHarness.sampleCatalog) == 0)
        let sha = String(repeating: "ab", count: 32)
        let publish = ["catalog", "publish", "--publication", "monthly", "--id", "2027-01", "--title", "January 2027",
                       "--published-at", "2027-01-01T00:00:00-05:00", "--asset", "/content/monthly/2027-01/issue.pdf:1234:\(sha)"]
        #expect(CommandLineTool.run(publish, environment: cli.environment, console: Console(out: { _ in }, err: { _ in })) == 0)
        var issue = try #require(try SQLiteStore(path: cli.database.path).loadCatalog().issues.first { $0.id == "2027-01" })
        #expect(issue.publishedAt == Instant(rfc3339: "2027-01-01T05:00:00Z"))
        #expect(issue.assets == [Asset(path: "/content/monthly/2027-01/issue.pdf", bytes: 1234, sha256: sha)])

        #expect(cli.run("catalog", "publish", "--publication", "monthly", "--id", "2027-01", "--title", "Again",
                        "--published-at", "2027-01-01T00:00:00-05:00") == 1)
        #expect(cli.err.contains("--replace"))
        #expect(cli.run("catalog", "publish", "--publication", "monthly", "--id", "2027-01", "--title", "January 2027 (fixed)",
                        "--published-at", "2027-01-02T00:00:00-05:00", "--replace") == 0)
        issue = try #require(try SQLiteStore(path: cli.database.path).loadCatalog().issues.first { $0.id == "2027-01" })
        #expect(issue.title == "January 2027 (fixed)" && issue.assets.isEmpty)

        #expect(cli.run("catalog", "publish", "--publication", "nope", "--id", "x", "--title", "X",
                        "--published-at", "2027-01-01T00:00:00Z") == 1)
        #expect(cli.err.contains("not found: publication nope"))
    }

    @Test(arguments: [
        ["bogus"],
        [],
        ["catalog"],
        ["catalog", "import"],
        ["catalog", "import", "a", "b"],
        ["catalog", "list", "--publication"],
        ["catalog", "list", "--verbose"],
        ["catalog", "publish", "--publication", "monthly", "--id", "x", "--title", "X", "--published-at", "2027-01-01"],
        ["catalog", "publish", "--publication", "monthly", "--id", "a/b", "--title", "X", "--published-at", "2027-01-01T00:00:00Z"],
        ["catalog", "publish", "--publication", "monthly", "--id", "x", "--title", "X", "--published-at", "2027-01-01T00:00:00Z",
         "--asset", "/content//x.pdf"],
        ["serve", "extra"],
        ["store", "exercise", "--count", "0"],
        ["--config"],
    ])
    func usageErrorsExitTwo(arguments: [String]) {
        let cli = CLIHarness()
        let status = CommandLineTool.run(arguments, environment: cli.environment, console: Console(out: { _ in }, err: { _ in }))
        #expect(status == 2)
    }

    @Test(arguments: [["--help"], ["serve", "--help"], ["catalog", "--help"], ["catalog", "import", "--help"],
                      ["catalog", "export", "--help"], ["catalog", "list", "--help"], ["catalog", "publish", "-h"],
                      ["store", "exercise", "--help"]])
    func helpEverywhere(arguments: [String]) {
        let cli = CLIHarness()
        let status = CommandLineTool.run(arguments, environment: cli.environment,
                                         console: Console(out: { text in #expect(text.hasPrefix("usage: issue-gateway")) },
                                                          err: { text in Issue.record("unexpected stderr: \(text)") }))
        #expect(status == 0)
        #expect(!FileManager.default.fileExists(atPath: cli.database.path), "help opens nothing")
    }
}

import CommandLineSupport
import Foundation
@testable import GatewayConfiguration
@testable import IssueGateway
import Synchronization
import TestSupport

/// Runs the CLI in-process against a temporary database, capturing what it prints.
final class CLIHarness {
    let database = TemporaryDatabase()
    private let outText = Mutex("")
    private let errText = Mutex("")

    var environment: [String: String] { ["ISSUE_GATEWAY_DATABASE": database.path] }
    var out: String { outText.withLock { $0 } }
    var err: String { errText.withLock { $0 } }

    /// The repository's sample catalog folder.
    static let sampleCatalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("catalog").path

    @discardableResult
    func run(_ arguments: String..., environment extra: [String: String] = [:]) -> Int32 {
        outText.withLock { $0 = "" }
        errText.withLock { $0 = "" }
        let console = Console(out: { s in self.outText.withLock { $0 += s } }, err: { s in self.errText.withLock { $0 += s } })
        return CommandLineTool.run(arguments, environment: environment.merging(extra) { $1 }, console: console)
    }

    func temporaryFolder(_ name: String) -> String { database.folder.appendingPathComponent(name).path }
}

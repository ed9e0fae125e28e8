import AppStoreSimulator
@testable import AppStoreSimulatorTool
import CommandLineSupport
import Foundation
import Synchronization
import Testing

/// The simulator's script format (docs/appstore-simulator.md) and its command line.
@Suite struct SimulatorScriptTests {
    static let exampleScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/appstore-simulator-script.json")

    @Test func documentedExampleParses() throws {
        let script = try SimulatorScript.parse(try Data(contentsOf: Self.exampleScript))
        #expect(script.bundleId == "com.example.magazines")
        let monthly = try #require(script.receipts["UkVDRUlQVC1NT05USExZ"])
        #expect(monthly.transactions.map(\.originalTransactionId) == ["500000000000001", "500000000000001"])
        #expect(script.receipts["UkVDRUlQVC1TQU5EQk9Y"]?.environment == .sandbox)
        #expect(script.receipts["UkVDRUlQVC1ET1dO"]?.status == 21005)
    }

    @Test(arguments: [
        #"{"bundleId": "b", "receipts": {"r": {"transactionz": []}}}"#,
        #"{"bundleId": "b", "receipts": {"r": {"environment": "Xcode"}}}"#,
        #"{"bundleId": "b", "receipts": {"r": {"transactions": [{"transactionId": "1", "productId": "p", "purchaseDate": "yesterday"}]}}}"#,
        #"{"bundleId": "b", "receipts": {"r": {"unavailableTimes": -1}}}"#,
        #"{"receipts": {}}"#,
    ])
    func malformedScriptIsRefused(_ text: String) {
        #expect(throws: (any Error).self) { try SimulatorScript.parse(Data(text.utf8)) }
    }

    @Test func commandRefusesMissingOrBadOptions() {
        let cli = SimulatorCLI()
        #expect(cli.run("--script", "x.json") == ExitStatus.usage)
        #expect(cli.err.contains("--listen is required"))
        #expect(cli.run("--simulator", "http://127.0.0.1:1", "--notify", "http://127.0.0.1:2/n",
                        "--receipt", "r", "--version", "3") == ExitStatus.usage)
        #expect(cli.run("--listen", "127.0.0.1:1", "--script", FileManager.default.temporaryDirectory
                            .appendingPathComponent("absent-\(UUID().uuidString).json").path) == ExitStatus.failure)
        #expect(cli.run("--listen", "nowhere", "--script", "x.json") == ExitStatus.usage)
        #expect(cli.err.contains("--listen:"))
        #expect(cli.run("--help") == ExitStatus.success)
        #expect(cli.out.contains("--notify GATEWAY_URL"))
    }

    @Test func notifyThroughAnUnreachableSimulatorFails() {
        let cli = SimulatorCLI()
        #expect(cli.run("--simulator", "http://127.0.0.1:1", "--notify", "http://127.0.0.1:2/n",
                        "--receipt", "r") == ExitStatus.failure)
        #expect(cli.err.contains("could not be reached"))
    }
}

/// Runs the `appstore-simulator` command in process, capturing what it prints.
private final class SimulatorCLI: Sendable {
    private let outText = Mutex("")
    private let errText = Mutex("")
    var out: String { outText.withLock { $0 } }
    var err: String { errText.withLock { $0 } }

    func run(_ arguments: String...) -> Int32 {
        outText.withLock { $0 = "" }
        errText.withLock { $0 = "" }
        let console = Console(out: { s in self.outText.withLock { $0 += s } }, err: { s in self.errText.withLock { $0 += s } })
        do {
            try AppStoreSimulatorCommand.run(arguments[...], console)
            return ExitStatus.success
        } catch {
            console.err(error.message)
            return error.exitStatus
        }
    }
}

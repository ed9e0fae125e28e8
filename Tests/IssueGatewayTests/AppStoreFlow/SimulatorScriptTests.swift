import AppStoreSimulator
import Foundation
import Testing
@testable import IssueGateway

/// The simulator's script format (docs/appstore-simulator.md) and its command line.
@Suite struct SimulatorScriptTests {
    static let exampleScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/appstore-simulator-script.json")

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
        let cli = CLIHarness()
        #expect(cli.run("appstore-simulator", "--script", "x.json") == ExitStatus.usage)
        #expect(cli.err.contains("--listen is required"))
        #expect(cli.run("appstore-simulator", "--simulator", "http://127.0.0.1:1", "--notify", "http://127.0.0.1:2/n",
                        "--receipt", "r", "--version", "3") == ExitStatus.usage)
        #expect(cli.run("appstore-simulator", "--listen", "127.0.0.1:1", "--script", cli.temporaryFolder("absent.json"))
                == ExitStatus.failure)
        #expect(cli.run("appstore-simulator", "--help") == ExitStatus.success)
        #expect(cli.out.contains("--notify GATEWAY_URL"))
    }

    @Test func notifyThroughAnUnreachableSimulatorFails() {
        let cli = CLIHarness()
        #expect(cli.run("appstore-simulator", "--simulator", "http://127.0.0.1:1", "--notify", "http://127.0.0.1:2/n",
                        "--receipt", "r") == ExitStatus.failure)
        #expect(cli.err.contains("could not be reached"))
    }
}

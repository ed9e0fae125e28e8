import Foundation
import Glibc
import Synchronization
import Testing
import GatewayTesting
import TestSupport

/// docs/googleplay-simulator.md as a newcomer plays it: the `googleplay-simulator` process started
/// with `--push`, a real `issue-gateway serve` started with the settings it printed, and scenario
/// steps posted to the simulator's control routes reaching the gateway as Pub/Sub pushes.
@Suite(.tags(.integration, .process)) struct CLIGooglePlaySimulatorTests {
    static let uuid = "6a2b4c8d-1e3f-4a5b-8c7d-9e0f1a2b3c4d"

    /// The control routes take no credentials: a listener others can reach is refused (usage, 2)
    /// unless asked for by name.
    @Test func aNonLoopbackListenerIsRefusedWithoutAllowRemote() throws {
        let binary = try #require(BuiltExecutable.googlePlaySimulator)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--listen", "0.0.0.0:0", "--key-file", "/nonexistent/key.json"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(said.contains("not a loopback address"), "\(said)")
    }

    @Test func stepsPostedToTheSimulatorProcessEntitleAReaderOnTheServeProcess() throws {
        let folder = TemporaryDatabase()
        try FileManager.default.createDirectory(at: folder.folder, withIntermediateDirectories: true)
        let gatewayPort = try FreePort.loopback()
        let simulator = try GooglePlaySimulatorProcess(arguments: [
            "--listen", "127.0.0.1:0", "--key-file", folder.folder.appendingPathComponent("key.json").path,
            "--push", "http://127.0.0.1:\(gatewayPort)/v1/googleplay/notifications"])
        defer { simulator.stop() }
        let settings = simulator.settings
        #expect(settings["ISSUE_GATEWAY_GOOGLE_PUSH_AUDIENCE"] == "http://127.0.0.1:\(gatewayPort)/v1/googleplay/notifications")
        let gateway = try ServeProcess(environment: settings.merging([
            "ISSUE_GATEWAY_DATABASE": folder.path, "ISSUE_GATEWAY_CATALOG": GatewayHarness.sampleCatalog,
            "ISSUE_GATEWAY_LISTEN": "127.0.0.1:\(gatewayPort)"]) { a, _ in a })
        defer { _ = gateway.stop() }
        let created = try gateway.send("POST", "/v1/accounts", body: #"{"appAccountToken":"\#(Self.uuid)"}"#)
        let account = try #require(try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any])
        let id = try #require(account["accountId"] as? String), token = try #require(account["accountToken"] as? String)

        let bought = try simulator.step("buy", #"{"token":"tok-1","productId":"monthly.monthly","account":"\#(Self.uuid)"}"#)
        #expect(bought["delivery"] as? String == "pushed" && bought["gatewayStatus"] as? Int == 200, "\(bought)")
        let subscriptions = try gateway.get("/v1/accounts/\(id)/entitlements", bearer: token)
        #expect(subscriptions.body.contains(#""originalTransactionId":"tok-1""#), "\(subscriptions.body)")
        // The scenario a month and more ahead: the gateway, on the wall clock, still takes the
        // simulator's credentials (its access token, the push's OIDC token).
        let moved = try simulator.send("POST", "/simulator/clock", body: #"{"advanceDays":40}"#)
        #expect(moved.status == 200, "\(moved.body)")
        let renewed = try simulator.step("renew", #"{"token":"tok-1"}"#)
        #expect(renewed["gatewayStatus"] as? Int == 200 && (renewed["gatewayBody"] as? String)?.contains("taken") == true,
                "\(renewed)")
        let history = try gateway.get("/v1/accounts/\(id)/history", bearer: token)
        #expect(history.body.contains("GPA.3300-0000-0001-00001..0"), "\(history.body)")
    }
}

/// `googleplay-simulator` as a child process: started, awaited until it has printed the gateway's
/// settings (its last line), asked over HTTP, stopped with SIGTERM.
final class GooglePlaySimulatorProcess: @unchecked Sendable {
    let process = Process()
    private let printed = Mutex("")
    private let ready = DispatchSemaphore(value: 0)
    private(set) var settings: [String: String] = [:]
    private(set) var baseURL = ""

    init(arguments: [String]) throws {
        guard let binary = BuiltExecutable.googlePlaySimulator else {
            throw ServeProcess.Failure("the googleplay-simulator product is not built")
        }
        process.executableURL = binary
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = Thread { [self] in
            while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty {
                let text = printed.withLock { $0 += String(decoding: chunk, as: UTF8.self); return $0 }
                if settings.isEmpty, text.contains("ISSUE_GATEWAY_GOOGLE_PUSH_AUDIENCE=") {
                    settings = Self.settings(text)
                    baseURL = text.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? ""
                    ready.signal()
                }
            }
            ready.signal()
        }
        reader.start()
        guard ready.wait(timeout: .now() + 60) == .success, !settings.isEmpty else {
            process.terminate()
            throw ServeProcess.Failure("googleplay-simulator did not start: \(printed.withLock { $0 })")
        }
    }

    /// `NAME=value` lines.
    static func settings(_ text: String) -> [String: String] {
        Dictionary(text.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0].hasPrefix("ISSUE_GATEWAY_") ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { a, _ in a })
    }

    /// `POST /simulator/steps/{name}` answered 200; its JSON.
    func step(_ name: String, _ body: String) throws -> [String: Any] {
        let answer = try send("POST", "/simulator/steps/\(name)", body: body)
        guard answer.status == 200, let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any] else {
            throw ServeProcess.Failure("\(name) answered \(answer.status): \(answer.body)")
        }
        return json
    }

    func send(_ method: String, _ path: String, body: String) throws -> (status: Int, body: String) {
        guard let port = Int(baseURL.split(separator: ":").last ?? "") else { throw ServeProcess.Failure("no port in \(baseURL)") }
        let client = try TestClient(port: port, timeoutMilliseconds: 30_000)
        client.send("\(method) \(path) HTTP/1.1\r\nHost: simulator\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        let response = try client.readResponse()
        return (response.status, response.text)
    }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}

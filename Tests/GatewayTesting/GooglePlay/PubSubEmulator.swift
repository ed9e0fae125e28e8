#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OutboundHTTP

/// Google's Pub/Sub emulator (`gcloud beta emulators pubsub start`) in its own process group on a
/// free port, and the few REST calls a test needs (topics, push and pull subscriptions, publish).
package final class PubSubEmulator: @unchecked Sendable {
    package static let project = "issue-gateway-test"
    /// How long the emulator (a JVM) may take to answer after its start.
    package static let startTimeout: TimeInterval = 90

    /// Why the emulator tests cannot run here, or nil when they can.
    package static let unavailableReason: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/gcloud") }
        return found ? nil : "gcloud (with `beta emulators pubsub`) is not on PATH: the Pub/Sub emulator tests cannot run"
    }()

    package let port: Int
    private let process: Process

    package init() throws {
        port = try Self.freePort()
        process = Process()
        // Its own process group (the launcher's pid), so that stopping it ends the JVM gcloud starts.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import os, sys; os.setpgid(0, 0); os.execvp(sys.argv[1], sys.argv[1:])",
                             "gcloud", "beta", "emulators", "pubsub", "start", "--host-port=127.0.0.1:\(port)", "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(Self.startTimeout)
        while (try? call("GET", "/v1/projects/\(Self.project)/topics")) == nil {
            guard Date() < deadline, process.isRunning else { stop(); throw EmulatorError("the emulator did not answer on \(port)") }
            Thread.sleep(forTimeInterval: 0.25)  // the JVM's start cannot be awaited otherwise
        }
    }

    deinit { stop() }

    /// Ends the whole group: gcloud's launcher and the JVM it started.
    package func stop() {
        guard process.processIdentifier > 0 else { return }
        kill(-process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    package var url: String { "http://127.0.0.1:\(port)" }

    package func createTopic(_ topic: String) throws {
        try call("PUT", "/v1/projects/\(Self.project)/topics/\(topic)", body: "{}")
    }

    /// A subscription; `pushEndpoint` nil is a pull subscription.
    package func createSubscription(_ name: String, topic: String, pushEndpoint: String?, ackDeadlineSeconds: Int = 10) throws {
        let push = pushEndpoint.map { #","pushConfig":{"pushEndpoint":"\#($0)"}"# } ?? ""
        try call("PUT", "/v1/projects/\(Self.project)/subscriptions/\(name)",
                 body: #"{"topic":"projects/\#(Self.project)/topics/\#(topic)","ackDeadlineSeconds":\#(ackDeadlineSeconds)\#(push)}"#)
    }

    package func publish(_ topic: String, data: [UInt8]) throws {
        try call("POST", "/v1/projects/\(Self.project)/topics/\(topic):publish",
                 body: #"{"messages":[{"data":"\#(Data(data).base64EncodedString())"}]}"#)
    }

    @discardableResult
    private func call(_ method: String, _ path: String, body: String? = nil) throws -> Data {
        let answer = try URLSessionExchange().send(
            method: method, url: URL(string: url + path)!, headers: body == nil ? [:] : ["Content-Type": "application/json"],
            body: body.map { Data($0.utf8) }, timeout: 10, maximumResponseBytes: 1 << 20)
        guard (200...299).contains(answer.statusCode) else { throw EmulatorError("\(method) \(path): HTTP \(answer.statusCode)") }
        return answer.body
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw EmulatorError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

package struct EmulatorError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}


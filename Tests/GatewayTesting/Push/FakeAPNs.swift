import Foundation
import TestSupport

/// `Tests/Fakes/fake_apns.py` as a child process: HTTP/2 over TLS on an ephemeral port, its own
/// self-signed certificate (the CA file the gateway is told to trust), the provider-token checks
/// against `key`'s public half, and the answers on demand its header describes.
package final class FakeAPNs: @unchecked Sendable {
    package static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fakes/fake_apns.py").path

    package struct Record: Equatable {
        package var token: String
        package var status: Int
        package var http: String
        package var problem: String?
        package var sandbox: Bool
        package var publicationId: String?
        package var issueId: String?
    }

    package let folder: URL
    package let port: Int
    package let caFile: String
    private let process: Process
    package var url: String { "https://127.0.0.1:\(port)" }

    package init(key: APNsTestKey, keyId: String, teamId: String, topic: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("fake-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script, "--dir", folder.path, "--public-key", key.publicKeyPath,
                             "--key-id", keyId, "--team-id", teamId, "--topic", topic]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line says where it listens: "READY <port> <cert>".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 3, words[0] == "READY", let port = Int(words[1]) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "fake APNs did not start"])
        }
        self.port = port
        caFile = String(words[2])
    }

    /// Every request it has answered, oldest first.
    package var records: [Record] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("requests.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Record(token: object["token"] as? String ?? "", status: object["status"] as? Int ?? 0,
                          http: object["http"] as? String ?? "", problem: object["problem"] as? String,
                          sandbox: object["sandbox"] as? Bool ?? false,
                          publicationId: object["publicationId"] as? String, issueId: object["issueId"] as? String)
        }
    }

    /// SIGTERM, then SIGKILL if it is still there after a second (a connection the gateway keeps
    /// open must not hold a test up).
    package func stop() {
        guard process.isRunning else { return }
        process.terminate()
        if !eventually(seconds: 1, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        _ = eventually(seconds: 2) { !process.isRunning }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

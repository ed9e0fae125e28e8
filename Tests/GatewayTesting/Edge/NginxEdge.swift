import Foundation
import Glibc
import TestSupport

/// Real nginx (`/usr/sbin/nginx`, installed by `scripts/setup`) running the repository's
/// `deploy/nginx/edge.conf` or `edge-secure-link.conf` as publishers would copy it, with only the deployment-specific lines
/// rewritten: the gateway's address, the listen port, the content root and the log path.
/// It runs as the current user in the foreground (`daemon off`, `master_process off`: one process,
/// no user switch) with every file in a temp prefix, and is killed by `stop()`.
package final class NginxEdge {
    package struct Failure: Error, CustomStringConvertible { package var description: String }

    package static let binary = "/usr/sbin/nginx"
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package let prefix: URL
    package let content: URL
    package let port: Int
    private let process = Process()

    /// `deploy/nginx/edge.conf`: the gateway's `GET /v1/edge/verify` decides every download.
    /// `port`: where nginx listens, when the gateway must know its CDN base before nginx starts.
    package convenience init(gatewayPort: Int, port: Int? = nil) throws {
        try self.init(configuration: "edge.conf", port: port) { port, content, prefix in
            [("server 127.0.0.1:8080;", "server 127.0.0.1:\(gatewayPort);"),
             ("listen 8081;", "listen 127.0.0.1:\(port);"),
             ("root /srv/issue-gateway;", "root \(content.path);"),
             ("/var/log/nginx/issue-edge.access.log", prefix.appendingPathComponent("edge.access.log").path)]
        }
    }

    /// `deploy/nginx/edge-secure-link.conf` with the secrets file it documents, written from
    /// `ISSUE_GATEWAY_EDGE_SECRETS`'s value: nginx checks the gateway's links by itself.
    package convenience init(secureLinkSecrets: String) throws {
        try self.init(configuration: "edge-secure-link.conf") { port, content, prefix in
            let lines = secureLinkSecrets.split(separator: ",").map { entry -> String in
                let parts = entry.split(separator: ":", maxSplits: 1)
                return "\(parts[0]) \"\(parts[1])\";"
            }
            let secrets = prefix.appendingPathComponent("edge-secrets.conf")
            try lines.joined(separator: "\n").appending("\n").write(to: secrets, atomically: true, encoding: .utf8)
            return [("include /etc/nginx/issue-gateway/edge-secrets.conf;", "include \(secrets.path);"),
                    ("listen 8081;", "listen 127.0.0.1:\(port);"),
                    ("root /srv/issue-gateway;", "root \(content.path);"),
                    ("/var/log/nginx/issue-edge.access.log", prefix.appendingPathComponent("edge.access.log").path)]
        }
    }

    /// `configuration`, a file of deploy/nginx, with the lines `replacements` names rewritten
    /// (given the port, content root and prefix; it may write files under the prefix).
    private init(configuration: String, port given: Int? = nil, replacements: (Int, URL, URL) throws -> [(String, String)]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw Failure(description: "\(Self.binary) is missing: run scripts/setup")
        }
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("issue-edge-\(UUID().uuidString)")
        content = prefix.appendingPathComponent("content-root")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        port = try given ?? FreePort.loopback()
        let deploy = Self.repository.appendingPathComponent("deploy/nginx")
        let edge = try Self.render(try String(contentsOf: deploy.appendingPathComponent(configuration), encoding: .utf8),
                                   try replacements(port, content, prefix))
        try edge.write(to: prefix.appendingPathComponent("edge.conf"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: deploy.appendingPathComponent("log-format.conf"),
                                         to: prefix.appendingPathComponent("log-format.conf"))
        let temp = ["body", "proxy", "fastcgi", "uwsgi", "scgi"].map { name in
            "\(name == "body" ? "client_body" : name)_temp_path \(prefix.path)/\(name);"
        }.joined(separator: "\n    ")
        let main = """
            daemon off;
            master_process off;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/error.log warn;
            events { worker_connections 64; }
            http {
                \(temp)
                access_log off;
                include \(prefix.path)/log-format.conf;
                include \(prefix.path)/edge.conf;
            }
            """
        try main.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["-p", prefix.path + "/", "-c", prefix.appendingPathComponent("nginx.conf").path,
                             "-e", prefix.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard eventually(seconds: 10, { !self.process.isRunning || Self.accepts(port: self.port) }), process.isRunning else {
            let log = (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            stop()
            throw Failure(description: "nginx did not start: \(log)")
        }
    }

    /// Puts a file under the content root at an asset's URL path.
    package func place(_ bytes: [UInt8], at path: String) throws {
        let file = content.appendingPathComponent(String(path.dropFirst()))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
    }

    package func stop() {
        if process.isRunning {
            // SIGKILL, not SIGTERM: nginx inherits this test process's signal mask, in which the
            // HTTP server's signal handling blocks SIGTERM, and with `master_process off` nginx
            // never unblocks it. It is one process with no children, so nothing is left behind.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: prefix)
    }

    deinit { stop() }

    private static func render(_ text: String, _ replacements: [(String, String)]) throws -> String {
        var text = text
        for (old, new) in replacements {
            guard text.contains(old) else { throw Failure(description: "the nginx configuration no longer contains \(old)") }
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }

    private static func accepts(port: Int) -> Bool { (try? TestClient(port: port)) != nil }
}

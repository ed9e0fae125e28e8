import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TestSupport

/// `issue-gateway serve` as a real child process on a free port: started, awaited until it says
/// it serves, asked things over HTTP, then stopped with a signal as an operator would.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    private let errorText = Mutex("")
    private let serving = DispatchSemaphore(value: 0)
    /// Signalled once the child's stderr has been read to its end.
    private let drained = DispatchSemaphore(value: 0)
    private(set) var port = 0

    init(environment: [String: String]) throws {
        guard let binary = BuiltExecutable.issueGateway else { throw Failure("the issue-gateway product is not built") }
        process.executableURL = binary
        process.arguments = ["serve"]
        process.environment = environment.merging(["ISSUE_GATEWAY_LISTEN": "127.0.0.1:0", "PATH": "/usr/bin:/bin"]) { a, _ in a }
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        // Read stderr on a thread of its own (blocking reads), until the child closes it.
        let reader = Thread { [self] in
            let handle = pipe.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let text = errorText.withLock { $0 += String(decoding: chunk, as: UTF8.self); return $0 }
                if port == 0, let range = text.range(of: #"serving on 127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                    port = Int(text[range].split(separator: ":").last ?? "") ?? 0
                    serving.signal()
                }
            }
            serving.signal()
            drained.signal()
        }
        reader.start()
        guard serving.wait(timeout: .now() + 60) == .success, port != 0 else {
            process.terminate()
            throw Failure("serve did not start: \(stderr)")
        }
    }

    var stderr: String { errorText.withLock { $0 } }

    /// One GET over a fresh connection; the status code and body.
    func get(_ path: String, bearer: String? = nil) throws -> (status: Int, body: String) {
        try send("GET", path, bearer: bearer)
    }

    /// One request over a fresh connection; the status code and body (status 0: no answer came).
    func send(_ method: String, _ path: String, body: String? = nil, bearer: String? = nil) throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.timeoutInterval = 10
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<(Int, String)?>(nil)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            result.withLock { $0 = (status, String(decoding: data ?? Data(), as: UTF8.self)) }
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 15)
        guard let (status, body) = result.withLock({ $0 }) else { throw Failure("no answer from \(path)") }
        return (status, body)
    }

    /// Sends `signal` and waits for the process to exit; its exit status.
    func stop(with signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        // What the child wrote last ("stopped") may still be in the pipe when it has exited.
        _ = drained.wait(timeout: .now() + 10)
        return process.terminationStatus
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

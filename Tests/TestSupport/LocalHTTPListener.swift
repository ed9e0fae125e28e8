#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Lifecycle

/// A tiny HTTP/1.1 listener on 127.0.0.1 (POSIX sockets) that plays an App Store endpoint for the
/// URLSession transport tests: one request per connection (or, with `keepAlive`, every request the
/// client sends on it), answered by `handler`, or never answered at all (`.silence`) to provoke a
/// client timeout.
public final class LocalHTTPListener: Sendable {
    public enum Reply: Sendable {
        case respond(status: Int, body: Data, headers: [(String, String)] = [])
        case silence
    }

    public struct Request: Sendable {
        public var path: String
        public var headers: [String: String]
        public var body: Data
    }

    public static let maximumRequestBytes = 1 << 20

    public let port: UInt16
    private let listenSocket: Int32
    private let handler: @Sendable (Request) -> Reply
    private let keepAlive: Bool
    private struct State: Sendable {
        var openSockets: [Int32] = []
        var acceptedConnections = 0
        var received: [Request] = []
        var stopped = false
    }

    /// Broadcast when a request arrives and when the listener stops.
    private let state = Condition(State())

    public init(keepAlive: Bool = false, handler: @escaping @Sendable (Request) -> Reply) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else { close(fd); throw POSIXError(.EADDRINUSE) }
        listenSocket = fd
        port = UInt16(bigEndian: address.sin_port)
        self.handler = handler
        self.keepAlive = keepAlive
        JoinableThread(name: "listener-accept") { [self] in acceptLoop() }.detach()
    }

    public var requests: [Request] { state.withLock { $0.received } }

    /// Connections accepted so far: with `keepAlive`, fewer than the requests when a client reuses one.
    public var acceptedConnections: Int { state.withLock { $0.acceptedConnections } }

    /// The requests received, once there are at least `count` (or `timeout` has passed): the client
    /// may give up on a request before this listener's thread has finished reading it.
    public func requests(atLeast count: Int, timeout: TimeInterval = 10) -> [Request] {
        state.withLock(when: { $0.received.count >= count }, timeout: .seconds(timeout)) { $0.received }
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Stops accepting and ends every connection still held open. Only shuts sockets down: each
    /// descriptor is closed by the thread that uses it, so a number the kernel hands out again to
    /// another test's socket can never be read, written or accepted on here.
    public func stop() {
        let sockets: [Int32] = state.withLock { state in
            state.stopped = true
            return state.openSockets
        }
        state.broadcast()
        shutdown(listenSocket, Int32(SHUT_RDWR))
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listenSocket, nil, nil)
            guard connection >= 0 else { break }
            let accepted: Bool = state.withLock { state in
                guard !state.stopped else { return false }
                state.openSockets.append(connection)
                state.acceptedConnections += 1
                return true
            }
            guard accepted else { close(connection); break }
            JoinableThread(name: "listener-serve") { [self] in serve(connection) }.detach()
        }
        close(listenSocket)
    }

    private func serve(_ connection: Int32) {
        defer {
            state.withLock { $0.openSockets.removeAll { $0 == connection } }
            close(connection)
        }
        var buffer = Data()
        repeat {
            guard let request = readRequest(connection, &buffer) else { return }
            state.withLock { $0.received.append(request) }
            state.broadcast()
            guard case .respond(let status, let body, let headers) = handler(request) else {
                // `.silence`: hold the connection, unanswered, until the listener stops.
                state.withLock(when: \.stopped) { _ in }
                return
            }
            var head = "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            head += keepAlive ? "\r\n" : "Connection: close\r\n\r\n"
            let bytes = [UInt8](Data(head.utf8) + body)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { return }
                sent += n
            }
        } while keepAlive
    }

    /// One request from `buffer` (bytes after it stay there for the next), reading more as needed.
    private func readRequest(_ connection: Int32, _ buffer: inout Data) -> Request? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let separator = Data("\r\n\r\n".utf8)
        while buffer.count < Self.maximumRequestBytes {
            if let end = buffer.range(of: separator) {
                let headText = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ")
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                if buffer.count - end.upperBound >= length {
                    let body = Data(buffer[end.upperBound..<(end.upperBound + length)])
                    buffer = Data(buffer[(end.upperBound + length)...])
                    return Request(path: requestLine.count > 1 ? String(requestLine[1]) : "", headers: headers, body: body)
                }
            }
            let n = recv(connection, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
        return nil
    }
}

import CSystem
import Glibc

/// A blocking TCP client for tests. Every read has a receive timeout, so a broken server fails a
/// test instead of hanging it.
public final class TestClient {
    public struct Response {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public enum Failure: Error { case connect(Int32), closed, timeout, malformed(String) }

    public let fd: Int32
    private var buffer: [UInt8] = []

    /// `source` binds the local end first (e.g. `127.0.0.2`, still loopback on Linux): a second
    /// client by source address.
    public init(port: Int, from source: String? = nil, timeoutMilliseconds: Int32 = 5000) throws {
        fd = source.map { csystem_connect_tcp_from($0, "127.0.0.1", Int32(port)) } ?? csystem_connect_tcp("127.0.0.1", Int32(port))
        guard fd >= 0 else { throw Failure.connect(csystem_errno()) }
        _ = csystem_set_receive_timeout_ms(fd, timeoutMilliseconds)
    }

    deinit { Glibc.close(fd) }

    public func send(_ text: String) { send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { csystem_send(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads one response; `headOnly` for answers to HEAD (no body whatever Content-Length says).
    public func readResponse(headOnly: Bool = false) throws -> Response {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = TestClient.find([13, 10, 13, 10], in: buffer)
            if headEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusParts = lines.removeFirst().split(separator: " ")
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw Failure.malformed(head)
        }
        let headers = lines.map { line -> (String, String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, headers: headers, body: [])
        if status == 100 { return response }
        let length = headOnly ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length { try fill() }
        response.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return response
    }

    /// True when the server closed the connection (EOF) before the timeout; leftover bytes are dropped.
    public func waitForClose() -> Bool {
        while true {
            do { try fill() } catch Failure.closed { return true } catch { return false }
        }
    }

    /// Half-closes the client's sending side.
    public func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { throw Failure.closed }
        if n < 0 {
            let error = csystem_errno()
            if error == EAGAIN || error == EWOULDBLOCK { throw Failure.timeout }
            if error == ECONNRESET { throw Failure.closed }
            throw Failure.malformed("recv errno \(error)")
        }
        buffer.append(contentsOf: chunk[..<n])
    }

    public static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if Array(haystack[i..<i + needle.count]) == needle { return i }
        }
        return nil
    }
}

import Foundation

import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// Routes that spool their bodies (`spoolsBody`): a body far larger than the buffer budget is
/// taken, with `Content-Length` or chunked, into a file the handler reads back, while the bytes the
/// server holds in memory stay small.
@Suite struct HTTPServerSpooledBodyTests {
    /// The body's length and a checksum, read back from the file in pieces.
    static func summary(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = request.spooledBody else { return HTTPResponse(status: 500, body: Array("not spooled".utf8)) }
        var count = 0, sum: UInt64 = 0
        let complete = body.forEachPiece(pieceBytes: 4096) { (piece: UnsafeRawBufferPointer) throws(Never) in
            count += piece.count
            for byte in piece { sum = sum &* 31 &+ UInt64(byte) }
        }
        return HTTPResponse(status: complete ? 200 : 500, body: Array("\(count) \(sum)".utf8))
    }

    static func expected(_ bytes: [UInt8]) -> String {
        "\(bytes.count) \(bytes.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) })"
    }

    @Test func aBodyBeyondTheBufferBudgetIsSpooledWithEitherFraming() throws {
        let size = 24 << 20
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let router = TestServer.defaultRouter {
            $0.add("PUT", "/list", execution: .worker, maxBodyBytes: 64 << 20, spoolsBody: true, handler: Self.summary)
        }
        let budget = 8 << 20
        let server = try TestServer(router: router) { $0.maxBufferedBytes = budget }
        defer { server.stop() }
        do {
            let client = try server.client()
            client.send("PUT /list HTTP/1.1\r\nHost: x\r\nContent-Length: \(size)\r\n\r\n")
            client.send(body)
            let answer = try client.readResponse()
            #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == Self.expected(body))
        }
        do {
            let client = try server.client()
            var chunked = Array("PUT /list HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            for start in stride(from: 0, to: size, by: 1 << 20) {
                let piece = body[start..<min(size, start + (1 << 20))]
                chunked += Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8)
            }
            chunked += Array("0\r\n\r\n".utf8)
            client.send(chunked)
            let answer = try client.readResponse()
            #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == Self.expected(body))
        }
    }

    @Test func theRoutesLimitStillHolds() throws {
        let router = TestServer.defaultRouter {
            $0.add("PUT", "/list", execution: .worker, maxBodyBytes: 1 << 20, spoolsBody: true, handler: Self.summary)
        }
        let server = try TestServer(router: router)
        defer { server.stop() }
        let client = try server.client()
        var chunked = Array("PUT /list HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for _ in 0..<3 { chunked += Array("80000\r\n".utf8) + [UInt8](repeating: 65, count: 0x80000) + Array("\r\n".utf8) }
        client.send(chunked)
        #expect(try client.readResponse().status == 413)
    }
}

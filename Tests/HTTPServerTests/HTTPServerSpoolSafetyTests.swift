import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// Spooled bodies cannot be used to fill the disk: a route's `authorizeHead` refuses a request from
/// its head before a byte of its body is kept, the spool budget refuses what would pass it before
/// reading on, and the spool folder is this user's alone.
@Suite struct HTTPServerSpoolSafetyTests {
    /// A fresh folder path (not made yet) for one server's spool.
    static func spoolPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("spool-test-\(UUID().uuidString)").path
    }

    static func entries(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? ["unreadable"]
    }

    /// Descriptors this process holds on files in `folder`, as /proc/self/fd names them (a file
    /// without a name shows as `folder/#inode (deleted)`).
    static func openFiles(in folder: String) -> [Int32] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { name in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                  target.hasPrefix(folder + "/") else { return nil }
            return Int32(name)
        }
    }

    /// `Bearer good` proceeds at once; `Bearer ask` is decided on the pool (opening `asked` as it
    /// starts), after `decisions` opens, and passes; anything else is refused (401) at once or, for
    /// `Bearer refuse`, by the pool (403).
    static func router(decisions: Gate, asked: Gate = Gate()) -> Router {
        TestServer.defaultRouter {
            $0.add("PUT", "/lists/{id}", execution: .worker, maxBodyBytes: 128 << 20, spoolsBody: true,
                   authorizeHead: { request in
                switch request.header("Authorization") {
                case "Bearer good" where request.pathParameters["id"] == "mine": return .proceed
                case "Bearer ask":
                    return .decideOnPool {
                        asked.open()
                        return decisions.wait() ? nil : .text(500, "no decision")
                    }
                case "Bearer refuse": return .decideOnPool { .text(403, "not yours") }
                default: return .refuse(.text(401, "who are you"))
                }
            }, handler: HTTPServerSpooledBodyTests.summary)
        }
    }

    @Test func aHeadCheckNeedsASpooledBodyOnAPool() async {
        // On the loop a `decideOnPool` decision would block it; on a body in memory it checks
        // nothing the handler does not.
        await #expect(processExitsWith: .failure) {
            RouterBuilder().add("PUT", "/lists/{id}", execution: .inline, spoolsBody: true,
                                authorizeHead: { _ in .proceed }) { _ in .text(200, "taken") }
        }
        await #expect(processExitsWith: .failure) {
            RouterBuilder().add("PUT", "/lists/{id}", execution: .worker,
                                authorizeHead: { _ in .proceed }) { _ in .text(200, "taken") }
        }
    }

    @Test func anUnauthorizedUploadIsRefusedFromItsHeadWithNothingSpooled() throws {
        let spool = Self.spoolPath()
        defer { try? FileManager.default.removeItem(atPath: spool) }
        let server = try TestServer(router: Self.router(decisions: Gate())) {
            $0.bodySpoolDirectory = spool
            $0.bodyReadTimeout = .seconds(2)
        }
        defer { server.stop() }
        for (secret, status) in [("none", 401), ("good", 401), ("refuse", 403)] {
            // 64 MiB announced, none sent: the answer comes from the head alone (else a 408).
            let client = try server.client()
            let path = secret == "good" ? "/lists/theirs" : "/lists/mine"
            client.send("PUT \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(secret)\r\nContent-Length: \(64 << 20)\r\n\r\n")
            client.send([UInt8](repeating: 65, count: 16 << 10))
            let answer = try client.readResponse()
            #expect(answer.status == status, "\(secret)")
            #expect(answer.header("Connection") == "close")
            #expect(server.server.spooledBytes == 0)
            #expect(Self.openFiles(in: spool).isEmpty, "no body file was made")
        }
        var mode = stat()
        #expect(lstat(spool, &mode) == 0 && mode.st_mode & 0o777 == 0o700)
    }

    @Test func aBodyWhoseHeadThePoolPassesIsReadOnFromWhereItStopped() throws {
        let decisions = Gate(), asked = Gate()
        let spool = Self.spoolPath()
        defer { try? FileManager.default.removeItem(atPath: spool) }
        let server = try TestServer(router: Self.router(decisions: decisions, asked: asked)) { $0.bodySpoolDirectory = spool }
        defer { server.stop() }
        let body = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) }
        let client = try server.client()
        client.send("PUT /lists/mine HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ask\r\nContent-Length: \(body.count)\r\n\r\n")
        client.send(Array(body[..<(200 << 10)]))
        #expect(asked.wait(), "the pool is deciding on the head")
        #expect(server.server.spooledBytes == 0, "nothing is kept before the decision")
        #expect(server.server.bufferedBytes <= server.server.configuration.readBufferBytes,
                "at most one read of the body waits in memory")
        decisions.open()
        client.send(Array(body[(200 << 10)...]))
        let answer = try client.readResponse()
        #expect(answer.status == 200 && answer.text == HTTPServerSpooledBodyTests.expected(body))
        #expect(eventually { server.server.spooledBytes == 0 })
        #expect(eventually { Self.openFiles(in: spool).isEmpty }, "the body's file is closed once the request ended")
    }

    @Test func theSpoolBudgetRefusesTheSecondOfTwoConcurrentUploads() throws {
        let spool = Self.spoolPath()
        defer { try? FileManager.default.removeItem(atPath: spool) }
        let budget = 1 << 20
        let server = try TestServer(router: Self.router(decisions: Gate())) {
            $0.bodySpoolDirectory = spool
            $0.maxSpooledBytes = budget
        }
        defer { server.stop() }
        let size = 768 << 10
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let head = "PUT /lists/mine HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Length: \(size)\r\n\r\n"
        let first = try server.client()
        first.send(head)
        first.send(Array(body[..<1024]))
        #expect(eventually { server.server.spooledBytes == size }, "the first reserves what it announced")

        let second = try server.client()
        second.send(head)
        let refused = try second.readResponse()
        #expect(refused.status == 503 && refused.header("Retry-After") == "1")
        #expect(refused.header("Connection") == "close")
        #expect(server.server.spooledBytes == size)

        let tooLarge = try server.client()
        tooLarge.send("PUT /lists/mine HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Length: \(2 << 20)\r\n\r\n")
        #expect(try tooLarge.readResponse().status == 413, "larger than the whole budget: it can never fit")

        first.send(Array(body[1024...]))
        let taken = try first.readResponse()
        #expect(taken.status == 200 && taken.text == HTTPServerSpooledBodyTests.expected(body))
        #expect(eventually { server.server.spooledBytes == 0 }, "a closed body gives its bytes back")

        let again = try server.client()
        again.send(head)
        again.send(body)
        #expect(try again.readResponse().status == 200)
    }

    @Test func aChunkedBodyPastTheBudgetIsRefusedAndItsFileDropped() throws {
        let spool = Self.spoolPath()
        defer { try? FileManager.default.removeItem(atPath: spool) }
        let server = try TestServer(router: Self.router(decisions: Gate())) {
            $0.bodySpoolDirectory = spool
            $0.maxSpooledBytes = 1 << 20
        }
        defer { server.stop() }
        let chunkedHead = Array("PUT /lists/mine HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let piece = Array("80000\r\n".utf8) + [UInt8](repeating: 66, count: 0x80000) + Array("\r\n".utf8)

        // Alone larger than the whole budget: it could never fit, so no Retry-After.
        let huge = try server.client()
        huge.send(chunkedHead + piece + piece + piece)
        let tooLarge = try huge.readResponse()
        #expect(tooLarge.status == 413 && tooLarge.header("Connection") == "close")
        #expect(eventually { server.server.spooledBytes == 0 })

        // It fits alone, not beside another body: busy, try again.
        let size = 768 << 10
        let holder = try server.client()
        holder.send("PUT /lists/mine HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Length: \(size)\r\n\r\n")
        holder.send([UInt8](repeating: 67, count: 1024))
        #expect(eventually { server.server.spooledBytes == size })
        let client = try server.client()
        client.send(chunkedHead + piece)
        let answer = try client.readResponse()
        #expect(answer.status == 503 && answer.header("Retry-After") != nil)
        #expect(eventually { server.server.spooledBytes == size }, "the refused body's file is dropped")
        holder.send([UInt8](repeating: 67, count: size - 1024))
        #expect(try holder.readResponse().status == 200)
        #expect(eventually { server.server.spooledBytes == 0 })
    }

    @Test func bodiesGoNamelessAndCloseOnExecToTheFolderOpenedAtTheStart() throws {
        let spool = Self.spoolPath(), moved = spool + "-moved", other = spool + "-other"
        defer { [spool, moved, other].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let server = try TestServer(router: Self.router(decisions: Gate())) { $0.bodySpoolDirectory = spool }
        defer { server.stop() }
        // What anyone who may write the parent folder could do once the server runs: move the
        // folder away and put a link to a folder of theirs in its place.
        try FileManager.default.moveItem(atPath: spool, toPath: moved)
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: spool, withDestinationPath: other)
        let body = (0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 5) }
        let client = try server.client()
        client.send("PUT /lists/mine HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Length: \(body.count)\r\n\r\n")
        client.send(Array(body[..<1024]))
        #expect(eventually { !Self.openFiles(in: moved).isEmpty }, "the body's file is in the folder opened at the start")
        #expect(Self.openFiles(in: other).isEmpty)
        for fd in Self.openFiles(in: moved) {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "a child process inherits no body")
        }
        #expect(Self.entries(moved).isEmpty && Self.entries(other).isEmpty, "no name is ever visible")
        client.send(Array(body[1024...]))
        let answer = try client.readResponse()
        #expect(answer.status == 200 && answer.text == HTTPServerSpooledBodyTests.expected(body))
    }

    @Test func aSpoolFolderThatIsALinkStopsTheStart() throws {
        let spool = Self.spoolPath(), real = spool + "-real"
        defer { [spool, real].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: spool, withDestinationPath: real)
        let router = Self.router(decisions: Gate())
        let refusal = #expect(throws: HTTPServerStartError.self) {
            _ = try TestServer(router: router) { $0.bodySpoolDirectory = spool }
        }
        // What the operator reads is a sentence, not the error's Swift spelling.
        let said = refusal.map { "\($0)" } ?? ""
        #expect(said.hasPrefix("the folder for streamed request bodies cannot be used: "), "\(said)")
    }

    @Test func aSpoolFolderOthersMayEnterStopsTheStart() throws {
        let spool = Self.spoolPath()
        defer { try? FileManager.default.removeItem(atPath: spool) }
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        let router = Self.router(decisions: Gate())
        #expect(throws: HTTPServerStartError.self) {
            _ = try TestServer(router: router) { $0.bodySpoolDirectory = spool }
        }
        // A server without spooling routes never looks at it.
        let plain = try TestServer { $0.bodySpoolDirectory = spool }
        plain.stop()
    }
}

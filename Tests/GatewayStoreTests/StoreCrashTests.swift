import Foundation
import Testing
import GatewayStore
import SQLiteStore
import TestSupport

/// A process killed with SIGKILL right after it reported a commit loses nothing: every account the
/// built `issue-gateway store exercise` said it committed is in the database afterwards.
@Suite struct StoreCrashTests {
    @Test func killedAfterACommitLosesNothing() throws {
        let binary = try #require(BuiltExecutable.issueGateway, "build the issue-gateway product first (swift build --build-tests)")
        let db = TemporaryDatabase()
        _ = try db.open()  // creates the folder and schema, so the child only writes
        let child = Process()
        child.executableURL = binary
        child.arguments = ["store", "exercise"]
        child.environment = ["ISSUE_GATEWAY_DATABASE": db.path, "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        child.standardOutput = pipe
        child.standardError = FileHandle.nullDevice
        try child.run()

        // Read reported commits until enough have gone by, then kill without warning.
        let wanted = 25
        var reported: [String] = []
        var buffer = Data()
        let reader = pipe.fileHandleForReading
        while reported.count < wanted {
            let chunk = reader.availableData
            guard !chunk.isEmpty else { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.hasPrefix("committed ") { reported.append(String(line.dropFirst("committed ".count))) }
            }
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(reported.count >= wanted)

        let store = try db.open()
        for id in reported {
            #expect(try store.account(id: id) != nil, "account \(id) was reported committed")
        }
    }
}

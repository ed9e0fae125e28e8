import Foundation
import Testing
import GatewayStore
@testable import SQLiteStore
import TestSupport

/// The reader pool is capped: a read waits for a connection rather than opening one more.
@Suite struct ReaderPoolTests {
    @Test func aReadWaitsWhileEveryReaderIsBusy() throws {
        let db = TemporaryDatabase()
        var settings = SQLiteSettings()
        settings.readerPoolSize = 1
        let store = try SQLiteStore(path: db.path, settings: settings)
        let firstEntered = DispatchSemaphore(value: 0), releaseFirst = DispatchSemaphore(value: 0)
        let secondEntered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? store.read { _ in
                firstEntered.signal()
                releaseFirst.wait()
            }
        }
        firstEntered.wait()
        Thread.detachNewThread { _ = try? store.read { _ in secondEntered.signal() } }
        // A negative can only be bounded: the second read must not start while the first holds the reader.
        #expect(secondEntered.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        try store.createAccount(Fixtures.account("alice"))  // the writer is not a reader: never waits for one
        releaseFirst.signal()
        #expect(secondEntered.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(try store.account(id: "alice") != nil)
    }
}

import CSQLite
import Testing
@testable import SQLiteStore
import TestSupport

/// SQLite's process-wide settings (decision 113).
@Suite struct SQLiteLibraryTests {
    /// With memory statistics off no allocation takes SQLite's global memory mutex to count
    /// itself: the counters stay at zero however much the store reads and writes.
    @Test func sqliteCountsNoAllocationsSoNoReadTakesItsGlobalMemoryMutex() throws {
        let db = TemporaryDatabase()
        let store = try db.open()
        try store.createAccount(Fixtures.account("alice"))
        #expect(try store.account(id: "alice") != nil)
        #expect(SQLiteLibrary.configured)
        var current: Int64 = -1, highest: Int64 = -1
        #expect(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highest, 0) == SQLITE_OK)
        #expect(current == 0 && highest == 0)
    }
}

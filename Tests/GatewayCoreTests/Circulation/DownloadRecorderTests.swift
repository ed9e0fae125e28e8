import Testing
import GatewayCore
import GatewayStore
import IssueCatalog
import TestSupport
import Wire

/// E36's download records: answers counted in memory, written as one record per pair per flush,
/// and flushed when the service stops.
@Suite struct DownloadRecorderTests {
    let jan = IssueRef(publicationId: "monthly", issueId: "2026-01")
    func at(_ s: Int64) -> Instant { Instant(millisecondsSinceEpoch: 1_767_225_600_000 + s * 1000) }

    @Test func e36AnswersAreCountedInMemoryAndWrittenPerPair() throws {
        let database = TemporaryDatabase()
        let store = try database.open()
        let recorder = DownloadRecorder(store: store)
        recorder.record(.account("a"), jan, at: at(5))
        recorder.record(.account("a"), jan, at: at(2))
        recorder.record(.account("a"), jan, at: at(9))
        recorder.record(.institution("lib"), jan, at: at(1))
        #expect(try store.read { tx throws(StoreError) in try tx.downloadRecords(of: jan) }.isEmpty, "nothing written by an answer")
        recorder.flush()
        recorder.record(.account("a"), jan, at: at(20))
        try recorder.start()
        recorder.stop()
        recorder.join()
        let records = try store.read { tx throws(StoreError) in try tx.downloadRecords(of: jan) }
        #expect(Set(records) == [DownloadRecord(reader: .account("a"), issue: jan, firstAt: at(2), lastAt: at(20), downloads: 4),
                                 DownloadRecord(reader: .institution("lib"), issue: jan, firstAt: at(1), lastAt: at(1), downloads: 1)])
    }

    @Test func e36PendingPairsAreBounded() throws {
        let database = TemporaryDatabase()
        var settings = DownloadRecorder.Settings()
        settings.maximumPending = 2
        let recorder = DownloadRecorder(store: try database.open(), settings: settings)
        for n in 0..<6 { recorder.record(.account("r\(n)"), jan, at: at(0)) }
        #expect(recorder.dropped == 2, "beyond twice the maximum, answers are counted, not held")
    }
}

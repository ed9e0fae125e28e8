import GatewayStore
import IssueCatalog
import Lifecycle
import Wire

/// E36: "the gateway records, per account and issue, the first and last instant and the count;
/// per institution and issue the same", without adding a store write to a token request.
/// A token answer only adds to a pending record in memory; a background loop writes the pending
/// records every second in one unit of work (`GatewayStore.recordDownloads`, each added to its
/// pair's stored record), and once more when stopped (`CoalescedWrites`; decision 85). About 200
/// bytes a pair: 10,000 pending pairs stay near 2 MB.
package final class DownloadRecorder: ThreadBackedService {
    package typealias Settings = CoalescedWriteSettings

    package let serviceThread = ServiceThread(name: "download-records")
    private let writes: CoalescedWrites<DownloadRecord.Pair, DownloadRecord>

    package init(store: any GatewayStore, settings: Settings = Settings()) {
        writes = CoalescedWrites(settings: settings, merge: { $0.merged(with: $1) }) { batch in
            try store.recordDownloads(batch.sorted { ($0.issue, $0.reader) < ($1.issue, $1.reader) })
        }
    }

    /// Answers dropped because the store could not keep up (never expected; for the operator).
    package var dropped: Int { writes.dropped }

    /// Notes one download-token answer for `reader` and `issue` at `instant`: memory only.
    package func record(_ reader: DownloadReader, _ issue: IssueRef, at instant: Instant) {
        writes.add(DownloadRecord.Pair(reader: reader, issue: issue),
                   DownloadRecord(reader: reader, issue: issue, firstAt: instant, lastAt: instant, downloads: 1))
    }

    /// Writes what is pending now (also what a test awaits instead of sleeping).
    package func flush() { writes.flush() }

    package func run(until stop: StopToken) { writes.run(until: stop) }
}

import GatewayStore
import IssueCatalog
import Lifecycle
import Synchronization
import Wire

/// E36: "the gateway records, per account and issue, the first and last such instant and the
/// count; per institution and issue the same", without adding a store write to a token request.
/// A token answer only adds to a pending record in memory (one lock, one dictionary update); a
/// background loop writes the pending records every `flushInterval` in one unit of work
/// (`GatewayStore.recordDownloads`, each added to its pair's stored record), and once more when
/// stopped. Memory is bounded: at `maximumPending` pairs the loop is woken at once, and answers
/// beyond twice that are counted in `dropped` rather than held (decision 85).
package final class DownloadRecorder: ThreadBackedService {
    package struct Settings: Sendable {
        package var flushInterval: Duration = .seconds(1)
        /// About 200 bytes a pair: 10,000 pairs stay near 2 MB.
        package var maximumPending = 10_000
        package init() {}
    }

    private struct Key: Hashable {
        let reader: DownloadReader
        let issue: IssueRef
    }

    private struct Pending {
        var records: [Key: DownloadRecord] = [:]
        var dropped = 0
    }

    package let serviceThread = ServiceThread(name: "download-records")
    private let store: any GatewayStore
    private let settings: Settings
    private let pending = Condition(Pending())

    package init(store: any GatewayStore, settings: Settings = Settings()) { self.store = store; self.settings = settings }

    /// Answers dropped because the store could not keep up (never expected; for the operator).
    package var dropped: Int { pending.withLock { $0.dropped } }

    /// Notes one download-token answer for `reader` and `issue` at `instant`: memory only.
    package func record(_ reader: DownloadReader, _ issue: IssueRef, at instant: Instant) {
        let key = Key(reader: reader, issue: issue)
        let wake = pending.withLock { p -> Bool in
            if let held = p.records[key] {
                p.records[key] = DownloadRecord(reader: reader, issue: issue, firstAt: min(held.firstAt, instant),
                                                lastAt: max(held.lastAt, instant), downloads: held.downloads + 1)
                return false
            }
            guard p.records.count < 2 * settings.maximumPending else { p.dropped += 1; return false }
            p.records[key] = DownloadRecord(reader: reader, issue: issue, firstAt: instant, lastAt: instant, downloads: 1)
            return p.records.count == settings.maximumPending
        }
        if wake { pending.broadcast() }
    }

    /// Writes what is pending now (also what a test awaits instead of sleeping).
    package func flush() {
        let batch = pending.withLock { p -> [DownloadRecord] in
            defer { p.records = [:] }
            return Array(p.records.values)
        }
        guard !batch.isEmpty else { return }
        do {
            try store.recordDownloads(batch.sorted { ($0.issue, $0.reader) < ($1.issue, $1.reader) })
        } catch {
            // Kept for the next flush, merged with what came since.
            pending.withLock { p in
                for record in batch {
                    let key = Key(reader: record.reader, issue: record.issue)
                    p.records[key] = p.records[key].map { $0.merged(with: record) } ?? record
                }
            }
        }
    }

    package func run(until stop: StopToken) {
        while !stop.isStopRequested {
            pending.withLock(when: { $0.records.count >= settings.maximumPending }, timeout: settings.flushInterval) { _ in }
            flush()
        }
        flush()
    }
}

import GatewayStore
import Lifecycle
import Wire

/// E34: "`lastUsedAt` moves at most once an hour per session (a request is not a write)". The
/// request that finds a session due for its move only notes it in memory; a background loop
/// stores the moves every second in one unit of work, each only if the session is still live and
/// was not moved within the hour meanwhile (by another process). So a publication morning's first
/// requests, every session due at once, cost one write per second rather than one per reader
/// (decision 112). A reader of `lastUsedAt` (the sessions list) flushes first.
package final class SessionTouches: ThreadBackedService {
    package let serviceThread = ServiceThread(name: "session-touches")
    private let writes: CoalescedWrites<String, SessionTouch>

    package init(store: any GatewayStore, settings: CoalescedWriteSettings = CoalescedWriteSettings()) {
        writes = CoalescedWrites(settings: settings, merge: { $0.at >= $1.at ? $0 : $1 }) { batch in
            let touches = batch.sorted(by: { $0.sessionId < $1.sessionId })
            _ = try store.write { tx throws(StoreError) in try tx.touch(touches) }
        }
    }

    /// Notes that the session was used at `instant` and is due for its move: memory only. Stored,
    /// it moves only if not moved within the hour before `instant` (by another process).
    package func touch(_ sessionId: String, at instant: Instant) {
        writes.add(sessionId, SessionTouch(sessionId: sessionId, at: instant,
                                           ifUnusedSince: instant.adding(milliseconds: -SessionPolicy.touchIntervalMilliseconds)))
    }

    /// Moves noted but not yet stored (for the operator; never expected).
    package var dropped: Int { writes.dropped }

    /// Stores the moves noted so far.
    package func flush() { writes.flush() }

    package func run(until stop: StopToken) { writes.run(until: stop) }
}

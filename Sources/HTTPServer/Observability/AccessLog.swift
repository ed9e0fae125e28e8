import Foundation
import Lifecycle
import Wire

/// Structured access log: one JSON object per line, formatted and written by a background thread
/// so that the event loops only append an entry to a queue.
///
/// When the queue is full (the destination cannot keep up) entries are dropped and counted; the
/// count is written as a `{"dropped":N}` line once the writer catches up.
public final class AccessLog: Sendable {
    public struct Entry: Sendable {
        var unixMilliseconds: Int64
        var request: RequestSummary
        var status: Int
        var responseBytes: Int
        var durationSeconds: Double
        var remoteAddress: String?
    }

    private struct Queue: Sendable {
        var entries: [Entry] = []
        var dropped = 0
        var closed = false
        var written = 0
        var received = 0
        /// The writer has written its last batch and ended.
        var finished = false

        var hasWork: Bool { !entries.isEmpty || dropped > 0 || closed }
    }

    /// Waited on by the writer (for work) and by `flush` and the writer's rest; so every wake-up
    /// is a broadcast.
    private let queue: Condition<Queue>
    private let writer: JoinableThread
    private let capacity: Int

    /// Writes to `destination` (e.g. `FileHandle.standardError`), keeping at most `capacity` entries
    /// queued. After each write the writer rests `batchInterval`, so under load it wakes and writes
    /// once per interval with everything gathered, instead of once per request.
    public init(destination: FileHandle, capacity: Int = 65_536, batchInterval: Duration = .milliseconds(20)) {
        let queue = Condition(Queue())
        self.queue = queue
        self.capacity = capacity
        writer = JoinableThread(name: "access-log") {
            AccessLog.writeLoop(queue, to: destination, resting: batchInterval)
        }
    }

    /// A log dropped without `close` still writes what it holds, and its thread ends.
    deinit {
        queue.withLock { $0.closed = true }
        queue.broadcast()
    }

    public func record(_ entry: Entry) {
        // Only the entry that makes the queue non-empty wakes the writer; the others find it awake.
        let wakesWriter = queue.withLock { queue -> Bool in
            guard !queue.closed, queue.entries.count < capacity else { queue.dropped += 1; return false }
            queue.entries.append(entry)
            queue.received += 1
            return queue.entries.count == 1
        }
        if wakesWriter { queue.broadcast() }
    }

    /// Blocks until every entry recorded so far is written (tests, shutdown).
    public func flush() {
        let target = queue.withLock { $0.received }
        queue.withLock(when: { $0.written >= target || $0.finished }) { _ in }
    }

    /// Writes what is queued and stops the writer thread.
    public func close() {
        queue.withLock { $0.closed = true }
        queue.broadcast()
        writer.join()
    }

    private static func writeLoop(_ queue: Condition<Queue>, to destination: FileHandle, resting batchInterval: Duration) {
        var timestamps = LogTimestamps()
        while true {
            let (batch, dropped, closed) = queue.withLock(when: \.hasWork) { queue in
                defer { queue.entries.removeAll(keepingCapacity: true); queue.dropped = 0 }
                return (queue.entries, queue.dropped, queue.closed)
            }
            var out: [UInt8] = []
            for entry in batch { out += AccessLog.line(entry, timestamps: &timestamps) }
            if dropped > 0 { out += Array("{\"dropped\":\(dropped)}\n".utf8) }
            if !out.isEmpty { try? destination.write(contentsOf: out) }
            queue.withLock { $0.written += batch.count }
            queue.broadcast()
            if closed { break }
            // The rest between writes; a close cuts it short.
            if !batch.isEmpty { queue.withLock(when: \.closed, timeout: batchInterval) { _ in } }
        }
        queue.withLock { $0.finished = true }
        queue.broadcast()
    }

    static func line(_ entry: Entry, timestamps: inout LogTimestamps) -> [UInt8] {
        let time = timestamps.rfc3339(unixMilliseconds: entry.unixMilliseconds)
        var w = JSONWriter()
        w.object { w in
            w.field("time", time)
            w.field("method", entry.request.method)
            w.field("path", entry.request.path)
            w.field("route", entry.request.route)
            w.field("status", entry.status)
            w.field("bytes", entry.responseBytes)
            w.key("durationMs")
            w.double((entry.durationSeconds * 1_000_000).rounded() / 1000)
            if let remote = entry.remoteAddress { w.field("remote", remote) }
            if let agent = entry.request.userAgent { w.field("userAgent", agent) }
        }
        return w.bytes + [UInt8(ascii: "\n")]
    }
}

/// RFC 3339 timestamps for log lines, reusing the text of the last whole second: entries arrive
/// in time order, so most share it.
struct LogTimestamps {
    private var second = Int64.min
    private var prefix = ""

    mutating func rfc3339(unixMilliseconds: Int64) -> String {
        let instant = Instant(millisecondsSinceEpoch: unixMilliseconds)
        if instant.secondsSinceEpoch != second {
            second = instant.secondsSinceEpoch
            prefix = String(Instant(secondsSinceEpoch: second).rfc3339.dropLast(4))  // "…:SS."
        }
        let millis = Int(unixMilliseconds - second * 1000)
        return prefix + (millis < 10 ? "00" : millis < 100 ? "0" : "") + String(millis) + "Z"
    }
}

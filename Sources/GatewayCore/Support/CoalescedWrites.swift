import Lifecycle

/// How often `CoalescedWrites` writes, and how much it holds.
package struct CoalescedWriteSettings: Sendable {
    /// Stored values are at most this late (a second: a report or list reading them flushes first).
    package var flushInterval: Duration = .seconds(1)
    /// Keys pending before the loop is woken at once.
    package var maximumPending = 10_000
    package init() {}
}

/// Writes that a request only notes in memory and a background loop stores in batches: a value
/// per key, merged with the one already pending (one lock, one dictionary update on the request's
/// path), written every `flushInterval` in one call, and once more when stopped. A failed write
/// keeps its values, merged with what came since, for the next flush. Memory is bounded: at
/// `maximumPending` keys the loop is woken at once, and values for new keys beyond twice that are
/// counted in `dropped` rather than held.
package final class CoalescedWrites<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Pending {
        var values: [Key: Value] = [:]
        var dropped = 0
    }

    private let settings: CoalescedWriteSettings
    private let merge: @Sendable (Value, Value) -> Value
    private let write: @Sendable ([Value]) throws -> Void
    private let pending = Condition(Pending())

    /// `merge(held, new)` makes one value of two for the same key; `write` stores a batch.
    package init(settings: CoalescedWriteSettings = CoalescedWriteSettings(), merge: @escaping @Sendable (Value, Value) -> Value,
                 write: @escaping @Sendable ([Value]) throws -> Void) {
        self.settings = settings; self.merge = merge; self.write = write
    }

    /// Values dropped because the store could not keep up (never expected; for the operator).
    package var dropped: Int { pending.withLock { $0.dropped } }

    /// Notes `value` for `key`: memory only.
    package func add(_ key: Key, _ value: Value) {
        let wake = pending.withLock { p -> Bool in
            if let held = p.values[key] {
                p.values[key] = merge(held, value)
                return false
            }
            guard p.values.count < 2 * settings.maximumPending else { p.dropped += 1; return false }
            p.values[key] = value
            return p.values.count == settings.maximumPending
        }
        if wake { pending.broadcast() }
    }

    /// Writes what is pending now (also what a reader of the stored values, or a test, calls first).
    package func flush() {
        let batch = pending.withLock { p -> [Key: Value] in
            defer { p.values = [:] }
            return p.values
        }
        guard !batch.isEmpty else { return }
        do {
            try write(Array(batch.values))
        } catch {
            pending.withLock { p in
                for (key, value) in batch { p.values[key] = p.values[key].map { merge(value, $0) } ?? value }
            }
        }
    }

    /// The loop of the service that owns these writes.
    package func run(until stop: StopToken) {
        while !stop.isStopRequested {
            pending.withLock(when: { $0.values.count >= settings.maximumPending }, timeout: settings.flushInterval) { _ in }
            flush()
        }
        flush()
    }
}

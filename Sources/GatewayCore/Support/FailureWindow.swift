import Synchronization
import Wire

/// At most `limit` failures per key in any `window` (E29: 10 failed claims per account and per
/// client address in 15 minutes): each key keeps the instants of its last `limit` failures, so the
/// bound holds over every window, not on average as a token bucket's would. Memory is bounded: at
/// most `maxKeys` keys are kept; past that the oldest key is forgotten.
package final class FailureWindow<Key: Hashable & Sendable>: Sendable {
    package let limit: Int
    package let windowMilliseconds: Int64
    package let maxKeys: Int

    private struct State {
        var failures: [Key: [Int64]] = [:]
        var order: [Key] = []
        var head = 0
    }

    private let state = Mutex(State())

    package init(limit: Int, windowSeconds: Int, maxKeys: Int = 100_000) {
        self.limit = max(1, limit)
        windowMilliseconds = Int64(max(1, windowSeconds)) * 1000
        self.maxKeys = max(1, maxKeys)
    }

    /// Nil while `key` may fail again at `now`; else the whole seconds until it may (`Retry-After`).
    package func retryAfter(_ key: Key, now: Instant) -> Int? {
        let nowMs = now.millisecondsSinceEpoch
        return state.withLock { state in
            guard let times = state.failures[key] else { return nil }
            let recent = times.filter { $0 > nowMs - windowMilliseconds }
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return max(1, Int((oldest + windowMilliseconds - nowMs + 999) / 1000))
        }
    }

    /// Counts one failure for `key` at `now`.
    package func record(_ key: Key, now: Instant) {
        let nowMs = now.millisecondsSinceEpoch
        state.withLock { state in
            if state.failures[key] == nil {
                while state.failures.count >= maxKeys, state.head < state.order.count {
                    state.failures[state.order[state.head]] = nil
                    state.head += 1
                }
                if state.head > 1024 && state.head * 2 > state.order.count {
                    state.order.removeFirst(state.head)
                    state.head = 0
                }
                state.order.append(key)
            }
            var times = state.failures[key, default: []].filter { $0 > nowMs - windowMilliseconds }
            times.append(nowMs)
            state.failures[key] = Array(times.suffix(limit))
        }
    }
}

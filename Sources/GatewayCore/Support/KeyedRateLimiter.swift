import Synchronization
import Wire

/// A token bucket per key (fairness): each key may take `burst` actions at once and
/// then `perMinute` a minute. Reusable by any route that must slow one party down (account
/// creation per source address; failed redemptions per account and per address). Time is
/// handed in, so tests need no clock.
///
/// Memory is bounded: at most `maxKeys` buckets are kept; past that the oldest key's bucket is
/// dropped (that key starts again with a full bucket: a party that commands more keys than this
/// is beyond what per-key limits can stop anyway).
package final class KeyedRateLimiter<Key: Hashable & Sendable>: Sendable {
    package struct Rate: Sendable, Equatable {
        package var perMinute: Int
        package var burst: Int

        package init(perMinute: Int, burst: Int) { self.perMinute = perMinute; self.burst = burst }
    }

    package enum Decision: Equatable {
        case allowed
        /// Refused; one action is possible again in this many whole seconds (`Retry-After`).
        case limited(retryAfterSeconds: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updatedAt: Int64
    }

    private struct State {
        var buckets: [Key: Bucket] = [:]
        /// Keys in the order their buckets were made, for dropping the oldest.
        var order: [Key] = []
        var head = 0

        /// Drops the oldest buckets until fewer than `limit` remain.
        mutating func makeRoom(below limit: Int) {
            while buckets.count >= limit, head < order.count {
                buckets[order[head]] = nil
                head += 1
            }
            if head > 1024 && head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }
    }

    package let rate: Rate
    package let maxKeys: Int
    private let state = Mutex(State())

    package init(_ rate: Rate, maxKeys: Int = 100_000) {
        self.rate = rate
        self.maxKeys = max(1, maxKeys)
    }

    /// Takes one token from `key`'s bucket at `now`, or says how long until one is there.
    package func take(_ key: Key, now: Instant) -> Decision { decide(key, now: now, consume: true) }

    /// What `take` would answer, without taking (a limit on failures is checked before the
    /// attempt and charged only when it fails).
    package func check(_ key: Key, now: Instant) -> Decision { decide(key, now: now, consume: false) }

    private func decide(_ key: Key, now: Instant, consume: Bool) -> Decision {
        let nowMs = now.millisecondsSinceEpoch
        let capacity = Double(max(1, rate.burst))
        let perMs = Double(max(0, rate.perMinute)) / 60_000
        return state.withLock { state in
            guard consume || state.buckets[key] != nil else { return .allowed }
            var bucket = state.buckets[key] ?? {
                state.makeRoom(below: maxKeys)
                state.order.append(key)
                return Bucket(tokens: capacity, updatedAt: nowMs)
            }()
            let elapsed = Double(max(0, nowMs - bucket.updatedAt))
            bucket.tokens = min(capacity, bucket.tokens + elapsed * perMs)
            bucket.updatedAt = max(bucket.updatedAt, nowMs)
            let decision: Decision
            if bucket.tokens >= 1 {
                if consume { bucket.tokens -= 1 }
                decision = .allowed
            } else if perMs > 0 {
                decision = .limited(retryAfterSeconds: max(1, Int(((1 - bucket.tokens) / perMs / 1000).rounded(.up))))
            } else {
                decision = .limited(retryAfterSeconds: 60)
            }
            state.buckets[key] = bucket
            return decision
        }
    }

    /// Buckets kept now (for tests).
    package var keyCount: Int { state.withLock { $0.buckets.count } }
}

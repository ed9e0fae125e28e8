/// A fixed number of permits (the connections a pool may lend at once): a count behind a
/// `Condition`, waited on until one is given back.
public final class Permits: Sendable {
    private let available: Condition<Int>

    public init(_ count: Int) { available = Condition(max(0, count)) }

    /// Takes a permit, waiting for one while none is free, at most `timeout` (nil: no limit);
    /// false when none came free in time.
    public func take(timeout: Duration? = nil) -> Bool {
        available.withLock(when: { $0 > 0 }, timeout: timeout) { count in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
    }

    /// Gives a permit back, waking the waiters (one takes it; a waiter whose time ran out at that
    /// moment cannot swallow the wake-up meant for another).
    public func giveBack() {
        available.withLock { $0 += 1 }
        available.broadcast()
    }
}

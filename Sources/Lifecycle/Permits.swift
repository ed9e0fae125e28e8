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

    /// Gives a permit back, waking one waiter: one permit serves one waiter, and waking them all
    /// would have every other one scheduled only to wait again. A waiter whose time ran out as it
    /// was woken still takes the permit (`take` takes whatever is free once the wait ends), so
    /// the wake-up is never lost to it.
    public func giveBack() {
        available.withLock { $0 += 1 }
        available.signal()
    }
}

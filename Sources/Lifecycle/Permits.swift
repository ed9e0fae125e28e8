import Synchronization

/// A fixed number of permits (the connections a pool may lend at once): `Mutex` for the count,
/// `Condition` for waiting until one is given back.
public final class Permits: Sendable {
    private let available: Mutex<Int>
    private let returned = Condition()

    public init(_ count: Int) { available = Mutex(max(0, count)) }

    /// Takes a permit, waiting for one while none is free, at most `timeout` (nil: no limit);
    /// false when none came free in time.
    public func take(timeout: Duration? = nil) -> Bool {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            let generation = returned.generation
            let taken = available.withLock { count -> Bool in
                guard count > 0 else { return false }
                count -= 1
                return true
            }
            if taken { return true }
            let remaining = deadline.map { $0 - ContinuousClock.now }
            if let remaining, remaining <= .zero { return false }
            returned.wait(after: generation, timeout: remaining)
        }
    }

    /// Gives a permit back, waking a waiter.
    public func giveBack() {
        available.withLock { $0 += 1 }
        returned.broadcast()
    }
}

import Glibc

/// State behind a lock, with a condition variable to wait until the state is ready: what
/// `Mutex` (which cannot be waited on) lacks. Waiting is by a predicate checked under the lock,
/// so a wake-up that comes before the wait, or a spurious one (POSIX allows them), is harmless.
///
///     let jobs = Condition([Job]())
///     jobs.withLock { $0.append(job) }; jobs.signal()               // producer
///     let job = jobs.withLock(when: { !$0.isEmpty }) { $0.removeFirst() }  // consumer
///
/// Waiters for different predicates may wait on different channels (one condition variable
/// each, one lock for all), so that a change wakes only those it may concern instead of every
/// waiter of the state.
public final class Condition<State: Sendable>: @unchecked Sendable {
    // pthread objects must not move once initialised: they live on the heap, not in the class
    // layout Swift may reach through accessors.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// One condition variable per channel.
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let channels: Int
    /// Read and written only with `mutex` held. On the heap too: the lock already makes access
    /// exclusive, and a class property would pay a dynamic exclusivity check on every access.
    private let state: UnsafeMutablePointer<State>

    /// `channels` condition variables (at least one); a waiter and whoever wakes it name the same.
    public init(_ state: State, channels: Int = 1) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Timed waits run on the monotonic clock: setting the wall clock neither cuts them short
        // nor stretches them (POSIX pthread_condattr_setclock).
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        self.channels = max(1, channels)
        condition = .allocate(capacity: self.channels)
        condition.initialize(repeating: pthread_cond_t(), count: self.channels)
        for channel in 0..<self.channels { pthread_cond_init(condition + channel, &attributes) }
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        for channel in 0..<channels { pthread_cond_destroy(condition + channel) }
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` on the state with the lock held.
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// Waits until `ready(state)` holds or `timeout` has passed (nil: no limit), then runs `body`
    /// on the state with the lock still held: what `body` sees is what ended the wait, and it
    /// asks `ready` again when it must tell a timeout from readiness.
    /// Waits on `channel` (modulo the channels).
    public func withLock<Result, Failure: Error>(when ready: (State) -> Bool, timeout: Duration? = nil, channel: Int = 0,
                                                 _ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        let condition = self.condition + channel % channels
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let timeout, timeout < Self.longestTimedWait {
            var deadline = Self.monotonicDeadline(after: timeout)
            while !ready(state.pointee) {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
        } else {
            while !ready(state.pointee) { pthread_cond_wait(condition, mutex) }
        }
        return try body(&state.pointee)
    }

    /// Wakes one waiter on `channel`, to check its predicate again; with or without the lock held.
    public func signal(channel: Int = 0) { pthread_cond_signal(condition + channel % channels) }

    /// Wakes every waiter on `channel` (waiters for different predicates, or all of them must go on).
    public func broadcast(channel: Int = 0) { pthread_cond_broadcast(condition + channel % channels) }

    /// Timeouts from here on wait without a deadline: a century is as good as forever, and the
    /// deadline of a far longer one would overflow `timespec`'s seconds.
    private static var longestTimedWait: Duration { .seconds(100 * 365 * 86_400) }

    /// Now on CLOCK_MONOTONIC plus `timeout` (a negative one is now), as pthread_cond_timedwait
    /// wants it.
    private static func monotonicDeadline(after timeout: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = max(timeout, .zero).components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        return timespec(tv_sec: Int(now.tv_sec) + Int(seconds) + nanoseconds / 1_000_000_000,
                        tv_nsec: nanoseconds % 1_000_000_000)
    }
}

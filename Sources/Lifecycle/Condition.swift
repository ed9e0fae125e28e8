#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waiting beside a `Mutex` (Synchronization's `Mutex` has no way to wait on it): an event count.
/// A waiter reads `generation` before it checks the state its mutex guards, and waits only while
/// the generation is unchanged; whoever changes that state under the mutex calls `broadcast()`
/// after. A broadcast between the check and the wait is never lost: the generation moved.
///
/// `Permits` is that loop for counted resources (the stores' connection pools).
public final class Condition: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let signal = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Guarded by `lock`.
    private var count: UInt64 = 0

    public init() {
        pthread_mutex_init(lock, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if os(Linux)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(signal, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(signal)
        pthread_mutex_destroy(lock)
        signal.deallocate()
        lock.deallocate()
    }

    /// How many broadcasts there have been.
    public var generation: UInt64 {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return count
    }

    /// Wakes every waiter.
    public func broadcast() {
        pthread_mutex_lock(lock)
        count &+= 1
        pthread_cond_broadcast(signal)
        pthread_mutex_unlock(lock)
    }

    /// Waits until a broadcast after `generation`, or until `timeout` passed (nil: no limit);
    /// false on timeout.
    @discardableResult
    public func wait(after generation: UInt64, timeout: Duration?) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard let timeout else {
            while count == generation { pthread_cond_wait(signal, lock) }
            return true
        }
        var deadline = Self.deadline(after: timeout)
        while count == generation {
            if pthread_cond_timedwait(signal, lock, &deadline) == ETIMEDOUT { return count != generation }
        }
        return true
    }

    private static func deadline(after timeout: Duration) -> timespec {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC, &now)
        #else
        clock_gettime(CLOCK_REALTIME, &now)
        #endif
        let (seconds, attoseconds) = max(timeout, .zero).components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        return timespec(tv_sec: now.tv_sec + Int(clamping: seconds) + nanoseconds / 1_000_000_000,
                        tv_nsec: nanoseconds % 1_000_000_000)
    }
}

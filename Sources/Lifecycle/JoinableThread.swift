import CSystem
import Glibc
import Synchronization

/// A named POSIX thread that can be joined: the one thread type of the project. Services, event
/// loops and workers must be finished, not just told to stop, before their owner says it has
/// stopped. A thread nobody joins is detached when its object goes, so it leaves nothing behind.
public final class JoinableThread: Sendable {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(_ name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// The running thread until it is joined or detached; held while joining, so a second
    /// `join` waits for the first to end instead of joining twice (undefined in POSIX).
    private let handle: Mutex<pthread_t?>

    /// Starts `run` on a new thread called `name` (its first 15 bytes show in `top -H` and perf).
    public init(name: String, _ run: @escaping @Sendable () -> Void) {
        let body = Unmanaged.passRetained(Body(name, run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            csystem_set_thread_name(body.name)
            body.run()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed: \(result)")
        handle = Mutex(thread)
    }

    deinit { detach() }

    /// Returns once `run` has returned (at once after an earlier join or a detach).
    public func join() {
        handle.withLock { thread in
            guard let running = thread else { return }
            pthread_join(running, nil)
            thread = nil
        }
    }

    /// Lets the thread end on its own: no one will join it.
    public func detach() {
        handle.withLock { thread in
            guard let running = thread else { return }
            pthread_detach(running)
            thread = nil
        }
    }
}

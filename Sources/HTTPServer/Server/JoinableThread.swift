import CSystem
import Glibc

/// A POSIX thread that can be joined: the loops and workers must be finished, not just told to
/// stop, before `HTTPServer.waitUntilStopped()` returns.
final class JoinableThread: @unchecked Sendable {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(_ name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    private var handle = pthread_t()

    /// Starts `run` on a new thread called `name` (its first 15 bytes show in `top -H` and perf).
    init(name: String, _ run: @escaping @Sendable () -> Void) {
        let body = Unmanaged.passRetained(Body(name, run)).toOpaque()
        let result = pthread_create(&handle, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            csystem_set_thread_name(body.name)
            body.run()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    func join() {
        pthread_join(handle, nil)
    }
}

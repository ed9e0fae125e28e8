import Glibc

/// A POSIX thread that can be joined: the loops and workers must be finished, not just told to
/// stop, before `HTTPServer.waitUntilStopped()` returns.
final class JoinableThread: @unchecked Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private var handle = pthread_t()

    init(_ run: @escaping @Sendable () -> Void) {
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        let result = pthread_create(&handle, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    func join() {
        pthread_join(handle, nil)
    }
}

import Dispatch
import Glibc

extension HTTPServer {
    /// For `issue-gateway serve`: starts the server (if not started), blocks until SIGTERM or
    /// SIGINT, then shuts down gracefully and returns once everything has stopped, so the caller can
    /// exit 0. The signals' default actions are replaced while this runs.
    func runUntilSignalled(signals: [Int32] = [SIGTERM, SIGINT], onStart: (Int) -> Void = { _ in }) throws {
        let received = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "http-server-signals")
        let sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { received.signal() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        let port = try start()
        onStart(port)
        received.wait()
        shutdown()
        waitUntilStopped()
    }
}

import Foundation

/// Every limit and timeout of the HTTP server, in one place.
struct HTTPServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal, or a name such as `localhost` (its first address), to bind
    /// (`ISSUE_GATEWAY_LISTEN` host part).
    var host: String = "127.0.0.1"
    /// 0 binds an ephemeral port; `HTTPServer.start()` returns the one chosen.
    var port: Int = 8080
    /// Event loops, each a thread with its own epoll and its own SO_REUSEPORT listener
    /// (`ISSUE_GATEWAY_THREADS`).
    var threads: Int = HTTPServerConfiguration.coreCount
    /// Open connections across all loops; the next one is answered 503 and closed.
    var maxConnections: Int = 10_000
    /// A keep-alive connection with no request in progress is closed after this long.
    var idleTimeout: Duration = .seconds(60)
    /// A request's head (request line and header fields) must arrive within this long of its first
    /// byte; the body within `bodyReadTimeout` of the head. Slow clients get a 408 and are closed.
    var headerReadTimeout: Duration = .seconds(10)
    var bodyReadTimeout: Duration = .seconds(30)
    /// A response that the client does not read within this long (no progress at all) is dropped.
    var writeTimeout: Duration = .seconds(30)
    /// After the last answer on a connection that closes (`Connection: close`, an error, a refusal,
    /// a shutdown) the server half-closes and discards what the client still sends for at most this
    /// long, so the answer is not lost to a reset (RFC 9112 §9.6).
    var lingerTimeout: Duration = .seconds(2)
    /// Graceful shutdown waits this long for in-flight requests before closing everything.
    var shutdownGracePeriod: Duration = .seconds(10)
    /// How often each loop checks its timeouts: the timeouts' precision.
    var timerResolution: Duration = .milliseconds(250)

    /// RFC 9112 §3: a longer request line is a 414.
    var maxRequestLineBytes: Int = 8192
    /// RFC 6585 §5: a longer header section, or more fields, is a 431.
    var maxHeaderBytes: Int = 16384
    var maxHeaderFields: Int = 100
    /// Larger bodies are a 413 unless the route allows more.
    var maxBodyBytes: Int = 1 << 20
    /// Requests parsed ahead of their responses on one connection (pipelining); past this the loop
    /// stops reading that connection until responses drain.
    var maxPipelinedRequests: Int = 32
    /// Response bytes queued on one connection before the loop stops reading from it.
    var maxPendingOutputBytes: Int = 4 << 20

    var workerThreads: Int = 2 * HTTPServerConfiguration.coreCount
    /// Jobs waiting for a worker; when full, a `.worker` request is answered 503.
    var workerQueueLimit: Int = 1024

    var listenBacklog: Int = 1024
    /// Connections accepted per readiness event before the loop serves others.
    var acceptBatch: Int = 64
    var readBufferBytes: Int = 64 * 1024

    init() {}

    static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? Int64.max : product &+ attoseconds / 1_000_000_000
    }

    var milliseconds: Int { Int(nanoseconds / 1_000_000) }
}

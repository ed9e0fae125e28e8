import Foundation

/// Every limit and timeout of the HTTP server, in one place.
public struct HTTPServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal, or a name such as `localhost` (its first address), to bind
    /// (`ISSUE_GATEWAY_LISTEN` host part).
    public var host: String = "127.0.0.1"
    /// 0 binds an ephemeral port; `HTTPServer.start()` returns the one chosen.
    public var port: Int = 8080
    /// Event loops, each a thread with its own epoll and its own SO_REUSEPORT listener
    /// (`ISSUE_GATEWAY_THREADS`).
    public var threads: Int = HTTPServerConfiguration.coreCount
    /// Open connections across all loops; the next one is answered 503 and closed.
    public var maxConnections: Int = 10_000
    /// A keep-alive connection with no request in progress is closed after this long.
    public var idleTimeout: Duration = .seconds(60)
    /// A request's head (request line and header fields) must arrive within this long of its first
    /// byte; the body within `bodyReadTimeout` of the head. Slow clients get a 408 and are closed.
    public var headerReadTimeout: Duration = .seconds(10)
    public var bodyReadTimeout: Duration = .seconds(30)
    /// A response that the client does not read within this long (no progress at all) is dropped.
    public var writeTimeout: Duration = .seconds(30)
    /// After the last answer on a connection that closes (`Connection: close`, an error, a refusal,
    /// a shutdown) the server half-closes and discards what the client still sends for at most this
    /// long, so the answer is not lost to a reset (RFC 9112 §9.6).
    public var lingerTimeout: Duration = .seconds(2)
    /// Graceful shutdown waits this long for in-flight requests before closing everything.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// How often each loop checks its timeouts: the timeouts' precision.
    public var timerResolution: Duration = .milliseconds(250)

    /// RFC 9112 §3: a longer request line is a 414.
    public var maxRequestLineBytes: Int = 8192
    /// RFC 6585 §5: a longer header section, or more fields, is a 431.
    public var maxHeaderBytes: Int = 16384
    public var maxHeaderFields: Int = 100
    /// Larger bodies are a 413 unless the route allows more.
    public var maxBodyBytes: Int = 1 << 20
    /// Where routes that spool their bodies keep them while they are read (unlinked files of mode
    /// 0600): made 0700 when missing; a server with spooling routes does not start when it is not
    /// this user's alone (`SpoolDirectory`). By default a folder of this user's in the system's
    /// temporary directory.
    public var bodySpoolDirectory = SpoolDirectory.standard
    /// Bytes all spooled bodies together may hold on disk. A body reserves its `Content-Length`
    /// when its head arrives (a chunked one, each piece as it comes): one that does not fit is
    /// answered 503 (with `Retry-After`) and its connection closed before more is read; one
    /// announced larger than the whole budget, 413.
    public var maxSpooledBytes: Int = 4 << 30
    /// Fields a request may carry at most once; a second line is a 400. They are not lists
    /// (RFC 9110 §5.3 lets a recipient combine only list-based fields), so a second copy can only
    /// come from an intermediary that appended one, and which copy counts must not be guessed.
    /// Host is always one (RFC 9112 §3.2). An application adds its own (an edge's X-Original-URI).
    public var singletonFields: [String] = HTTPServerConfiguration.standardSingletonFields
    public static let standardSingletonFields = ["Authorization", "Content-Type"]
    /// Requests parsed ahead of their responses on one connection (pipelining); past this the loop
    /// stops reading that connection until responses drain.
    public var maxPipelinedRequests: Int = 32
    /// Response bytes queued on one connection before the loop stops reading from it.
    public var maxPendingOutputBytes: Int = 4 << 20
    /// Bytes all connections together may hold in request bodies being read, unparsed input,
    /// and responses not yet taken by their clients. Past it a body being read is answered 503
    /// (and its connection closed), and a request is answered 503 without running its handler,
    /// until clients take their output: memory stays bounded whatever clients announce or leave
    /// unread, and the server never aborts.
    public var maxBufferedBytes: Int = 256 << 20
    /// The fraction of `maxBufferedBytes` one client (source address) may hold: past it its own
    /// bodies and requests are answered 503 as above, while the rest of the budget stays for the
    /// others (one client can no longer make the whole server answer 503).
    public var maxBufferSharePerClient: Double = 0.25

    /// The worker pools by name (`Execution.pool(id)`; `.worker` is the standard one): bulkheads,
    /// so that handlers that wait long (calls to another service) cannot take the threads of fast
    /// ones. When a pool's queue is full its requests are answered 503. A route on a pool not
    /// named here stops `HTTPServer.start()`.
    public var workerPools: [WorkerPoolID: WorkerPoolSize] = [
        .standard: WorkerPoolSize(threads: 2 * HTTPServerConfiguration.coreCount, queueLimit: 1024),
    ]

    /// Fairness between clients (by source address): requests one client may have queued or
    /// running on the worker pools in all, and the fraction of each pool (threads plus queue)
    /// it may take. Past either its requests are answered 503 while the pools keep room for
    /// everyone else. Requests answered on the event loop are not counted.
    public var maxInFlightPerClient: Int = 512
    public var maxPoolSharePerClient: Double = 0.5

    public var listenBacklog: Int = 1024
    /// Connections accepted per readiness event before the loop serves others.
    public var acceptBatch: Int = 64
    public var readBufferBytes: Int = 64 * 1024

    public init() {}

    public static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

/// A worker pool's threads and how many jobs may wait for them (past that: 503).
public struct WorkerPoolSize: Sendable, Equatable {
    public var threads: Int
    public var queueLimit: Int

    public init(threads: Int, queueLimit: Int) {
        self.threads = threads
        self.queueLimit = queueLimit
    }
}

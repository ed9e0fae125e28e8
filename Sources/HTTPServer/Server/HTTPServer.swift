import CSystem
import Glibc
import Lifecycle
import Metrics
import Synchronization

/// The HTTP/1.1 server: `threads` event loops, each with its own epoll and SO_REUSEPORT listener
/// (the kernel spreads connections over them), and bounded worker pools for blocking handlers.
///
///     let server = HTTPServer(configuration: configuration, router: router, metrics: metrics, accessLog: log)
///     let port = try server.start()
///     ...
///     server.shutdown()          // from any thread: graceful
///     server.waitUntilStopped()
///
/// Registers `http_requests_total`, `http_request_duration_seconds` and `http_open_connections`
/// with `metrics` as a collector.
public final class HTTPServer: Sendable {
    private enum State {
        case created
        case running(loops: [EventLoop], threads: [JoinableThread])
        case stopped
    }

    public let configuration: HTTPServerConfiguration
    private let context: ServerContext
    private let state = Mutex(State.created)

    /// `workers`: pools made beforehand, so that the application can queue its own blocking work
    /// on them too; nil makes them from `configuration`. The server shuts them down when it stops.
    public init(configuration: HTTPServerConfiguration, router: Router, metrics: Metrics, accessLog: AccessLog?,
                workers: WorkerPools? = nil) {
        self.configuration = configuration
        context = ServerContext(configuration: configuration, router: router, metrics: metrics, accessLog: accessLog,
                                workers: workers ?? WorkerPools(configuration))
    }

    /// Binds the listeners and starts the loops; returns the bound port (useful with port 0).
    @discardableResult
    public func start() throws -> Int {
        csystem_ignore_sigpipe()
        return try state.withLock { state -> Int in
            guard case .created = state else { throw HTTPServerStartError.alreadyStarted }
            if let pool = context.workers.unknownPool(in: context.router) {
                throw HTTPServerStartError.unknownWorkerPool(pool.name)
            }
            var spool: SpoolDirectory?
            if context.router.routes.contains(where: \.spoolsBody) {
                do throws(SpoolDirectory.Unsafe) { spool = try SpoolDirectory(configuration.bodySpoolDirectory) } catch {
                    throw HTTPServerStartError.unsafeSpoolDirectory(error.description)
                }
            }
            var listeners: [Int32] = []
            var port = configuration.port
            do {
                // Refuse a port someone already listens on, rather than share it through SO_REUSEPORT.
                if port != 0 && csystem_probe_port_free(configuration.host, Int32(port)) != 0 {
                    throw SystemError("bind \(configuration.host):\(port)")
                }
                for _ in 0..<max(1, configuration.threads) {
                    let fd = csystem_listen_tcp(configuration.host, Int32(port), Int32(configuration.listenBacklog), 1)
                    guard fd >= 0 else { throw SystemError("listen on \(configuration.host):\(port)") }
                    listeners.append(fd)
                    port = Int(csystem_local_port(fd))  // later listeners join the first one's port
                }
                let loops = try listeners.enumerated().map { try EventLoop(index: $0.offset, context: context, listenFD: $0.element, spoolDirectory: spool) }
                let threads = loops.map { loop in JoinableThread(name: "http-loop-\(loop.index)") { loop.run() } }
                state = .running(loops: loops, threads: threads)
                let shared = context
                shared.metrics.addCollector { out in
                    RequestStats.write(loops.map(\.stats),
                                       openConnections: shared.openConnections.load(ordering: .relaxed),
                                       bufferedBytes: shared.bufferedBytes.load(ordering: .relaxed), into: &out)
                }
                return port
            } catch {
                listeners.forEach { _ = Glibc.close($0) }
                throw error
            }
        }
    }

    /// Graceful shutdown, from any thread: the loops close their listeners, close idle
    /// connections, answer requests already received (with `Connection: close`) and end when their
    /// last connection is gone or `shutdownGracePeriod` has passed.
    public func shutdown() {
        let loops: [EventLoop] = state.withLock { state in
            if case .running(let loops, _) = state { return loops }
            return []
        }
        loops.forEach { $0.requestShutdown() }
    }

    /// Blocks until every loop has ended, then stops the worker pools (also when never started).
    public func waitUntilStopped() {
        let threads: [JoinableThread] = state.withLock { state in
            if case .running(_, let threads) = state { return threads }
            return []
        }
        threads.forEach { $0.join() }
        // A server that never started stops its pools too: their threads start with the server object.
        let shouldStopWorkers = state.withLock { state -> Bool in
            switch state {
            case .created, .running:
                state = .stopped
                return true
            case .stopped:
                return false
            }
        }
        if shouldStopWorkers { context.workers.shutdown() }
        context.accessLog?.flush()
    }

    /// Open connections counted against the limit.
    public var openConnections: Int { context.openConnections.load(ordering: .relaxed) }
    /// Bytes all connections hold in bodies, unparsed input and unsent output (`maxBufferedBytes`).
    public var bufferedBytes: Int { context.bufferedBytes.load(ordering: .relaxed) }
    /// Bytes spooled bodies hold on disk, reserved from `maxSpooledBytes`.
    public var spooledBytes: Int { context.spoolBudget.reserved }
    /// Jobs waiting for a worker thread, all pools together.
    var queuedJobs: Int { context.workers.queued }
}

public enum HTTPServerStartError: Error, Equatable, CustomStringConvertible {
    case alreadyStarted
    /// A route runs on a pool the configuration does not size.
    case unknownWorkerPool(String)
    /// Routes spool bodies, and their folder is missing and cannot be made, or others may use it.
    case unsafeSpoolDirectory(String)

    /// A sentence for the operator who started the server.
    public var description: String {
        switch self {
        case .alreadyStarted: "the server was started already"
        case .unknownWorkerPool(let pool): "a route runs on the worker pool \(pool), which the configuration does not size"
        case .unsafeSpoolDirectory(let why): "the folder for streamed request bodies cannot be used: \(why)"
        }
    }
}

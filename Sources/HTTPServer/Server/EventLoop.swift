import CSystem
import Glibc
import Synchronization
import Wire

/// One event loop: a thread with its own epoll instance, its own SO_REUSEPORT listener, an eventfd
/// through which workers hand back responses (and `shutdown` wakes it), and the connections it
/// accepted. Everything but `post` and `requestShutdown` runs on the loop's thread only.
final class EventLoop: @unchecked Sendable {
    /// A worker's finished response on its way back to the loop.
    struct Completion: Sendable {
        let fd: Int32
        let connectionID: UInt64
        let sequence: UInt64
        let response: HTTPResponse
    }

    /// A route's decision on a head (`HeadDecision.decideOnPool`): nil reads the body.
    struct HeadVerdict: Sendable {
        let fd: Int32
        let connectionID: UInt64
        let refusal: HTTPResponse?
    }

    private struct Inbox {
        var completions: [Completion] = []
        var verdicts: [HeadVerdict] = []
        var shutdownRequested = false
        /// The loop has ended and closed its eventfd: nothing may be posted any more.
        var closed = false
    }

    let context: ServerContext
    let stats = RequestStats()
    let epollFD: Int32
    let wakeFD: Int32
    private(set) var listenFD: Int32
    private let inbox = Mutex(Inbox())
    let index: Int
    /// The opened spool folder, when routes spool bodies (checked at the start).
    let spoolDirectory: SpoolDirectory?

    var connections: [Connection?] = []
    var connectionCount = 0
    private var nextConnectionID: UInt64 = 1
    var dateCache = DateCache()
    var readBuffer: [UInt8]
    private var nextTimerCheck: Int64 = 0
    private var acceptPausedUntil: Int64 = 0
    var draining = false
    private var drainDeadline: Int64 = 0

    private static let readable = UInt32(EPOLLIN.rawValue)
    static let writable = UInt32(EPOLLOUT.rawValue)

    init(index: Int, context: ServerContext, listenFD: Int32, spoolDirectory: SpoolDirectory?) throws {
        self.index = index
        self.spoolDirectory = spoolDirectory
        self.context = context
        self.listenFD = listenFD
        readBuffer = Array(repeating: 0, count: context.configuration.readBufferBytes)
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw SystemError("epoll_create1") }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else { Glibc.close(epollFD); throw SystemError("eventfd") }
        guard csystem_epoll_add(epollFD, wakeFD, EventLoop.readable, UInt64(wakeFD)) == 0,
              csystem_epoll_add(epollFD, listenFD, EventLoop.readable, UInt64(listenFD)) == 0 else {
            let error = SystemError("epoll_ctl")
            Glibc.close(wakeFD)
            Glibc.close(epollFD)
            throw error
        }
    }

    // MARK: Called from other threads

    /// Hands a worker's response to the loop. Dropped when the loop has already ended.
    func post(_ completion: Completion) { deliver { $0.completions.append(completion) } }

    /// Hands a pool's decision on a head to the loop. Dropped when the loop has already ended.
    func post(_ verdict: HeadVerdict) { deliver { $0.verdicts.append(verdict) } }

    /// Adds to the inbox and wakes the loop when it was empty.
    private func deliver(_ add: (inout Inbox) -> Void) {
        // The wake-up is written under the lock that `finish` closes the eventfd under: a worker
        // finishing after the loop ended must never write into a reused descriptor number.
        inbox.withLock { inbox in
            guard !inbox.closed else { return }
            add(&inbox)
            if inbox.completions.count + inbox.verdicts.count == 1 { signalWake() }
        }
    }

    /// Graceful shutdown: stop accepting, finish in-flight requests, close.
    func requestShutdown() {
        inbox.withLock { inbox in
            guard !inbox.closed else { return }
            inbox.shutdownRequested = true
            signalWake()
        }
    }

    /// An eventfd write never blocks here (the counter cannot reach its maximum), so it may be
    /// made while holding the inbox lock.
    private func signalWake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: The loop

    func run() {
        let capacity = 256
        var events = [UInt32](repeating: 0, count: capacity)
        var tags = [UInt64](repeating: 0, count: capacity)
        let tick = Int32(max(1, context.configuration.timerResolution.milliseconds))
        while !(draining && (connectionCount == 0 || csystem_monotonic_ns() >= drainDeadline)) {
            let ready = csystem_epoll_wait(epollFD, &events, &tags, Int32(capacity), tick)
            if ready < 0 && csystem_errno() != EINTR { break }
            dateCache.refresh()
            for i in 0..<Int(max(0, ready)) {
                let fd = Int32(truncatingIfNeeded: tags[i])
                if fd == wakeFD {
                    drainInbox()
                } else if fd == listenFD {
                    acceptConnections()
                } else if let connection = connection(fd) {
                    handle(connection, events: events[i])
                }
            }
            let now = csystem_monotonic_ns()
            if now >= nextTimerCheck {
                nextTimerCheck = now + context.configuration.timerResolution.nanoseconds
                checkTimeouts(now: now)
            }
        }
        finish()
    }

    func connection(_ fd: Int32) -> Connection? {
        Int(fd) < connections.count ? connections[Int(fd)] : nil
    }

    private func drainInbox() {
        var counter: UInt64 = 0
        _ = read(wakeFD, &counter, 8)
        let (completions, verdicts, shutdown) = inbox.withLock { inbox in
            defer {
                inbox.completions.removeAll(keepingCapacity: true)
                inbox.verdicts.removeAll()
            }
            return (inbox.completions, inbox.verdicts, inbox.shutdownRequested)
        }
        for completion in completions { complete(completion) }
        for verdict in verdicts { decided(verdict) }
        if shutdown && !draining { beginDraining() }
    }

    // MARK: Accepting

    /// Accepts up to `acceptBatch` connections per readiness event (level-triggered: the rest come
    /// on the next turn, after the loop has served its other connections).
    private func acceptConnections() {
        let now = csystem_monotonic_ns()
        guard listenFD >= 0, now >= acceptPausedUntil else { return }
        for _ in 0..<context.configuration.acceptBatch {
            let fd = csystem_accept_nonblocking(listenFD)
            if fd < 0 {
                let error = csystem_errno()
                if error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM {
                    // Out of descriptors: stop accepting for a tick instead of spinning on the listener.
                    acceptPausedUntil = now + context.configuration.timerResolution.nanoseconds
                    _ = csystem_epoll_remove(epollFD, listenFD)
                }
                return
            }
            _ = csystem_set_nodelay(fd)
            let admitted = context.admitConnection()
            let connection = Connection(fd: fd, id: nextConnectionID, counted: admitted,
                                        limits: context.limits, configuration: context.configuration, now: now)
            nextConnectionID += 1
            (connection.sourceAddress, connection.sourcePort) = EventLoop.peerAddress(fd)
            connection.clientKey = connection.sourceAddress.map(ClientKey.of)
            register(connection)
            if !admitted {
                refuse(connection)
            }
        }
    }

    /// One getpeername per connection: per-client limits key on the address, the access log
    /// writes it with the port.
    private static func peerAddress(_ fd: Int32) -> (String?, Int) {
        var text = [CChar](repeating: 0, count: 64)
        var port: Int32 = 0
        guard csystem_peer_address(fd, &text, Int32(text.count), &port) == 0 else { return (nil, 0) }
        return (String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), Int(port))
    }

    private func resumeAcceptingIfPaused(now: Int64) {
        guard acceptPausedUntil != 0, now >= acceptPausedUntil, listenFD >= 0 else { return }
        acceptPausedUntil = 0
        _ = csystem_epoll_add(epollFD, listenFD, EventLoop.readable, UInt64(listenFD))
    }

    private func register(_ connection: Connection) {
        let fd = Int(connection.fd)
        if fd >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: fd + 1 - connections.count))
        }
        connections[fd] = connection
        connectionCount += 1
        connection.registeredEvents = EventLoop.readable
        _ = csystem_epoll_add(epollFD, connection.fd, EventLoop.readable, UInt64(connection.fd))
    }

    /// Over the connection limit: a 503 with `Connection: close`, then a lingering close.
    private func refuse(_ connection: Connection) {
        closeWithError(connection, HTTPServerError(.tooManyConnections, "The server has too many open connections."))
    }

    // MARK: Timeouts and shutdown

    private func checkTimeouts(now: Int64) {
        resumeAcceptingIfPaused(now: now)
        let timeouts = self.timeouts
        for case let connection? in connections {
            switch connection.machine.tick(now: now, input: connection.inputProgress,
                                           pendingOutput: connection.pendingOutput, timeouts: timeouts) {
            case .none: break
            case .close: close(connection)
            case .requestTimeout:
                closeWithError(connection, HTTPServerError(.requestTimeout, "The request took too long to arrive."))
            }
        }
    }

    private var timeouts: ConnectionStateMachine<Connection.RequestInfo>.Timeouts {
        let configuration = context.configuration
        return .init(idle: configuration.idleTimeout.nanoseconds, headerRead: configuration.headerReadTimeout.nanoseconds,
                     bodyRead: configuration.bodyReadTimeout.nanoseconds, write: configuration.writeTimeout.nanoseconds,
                     linger: configuration.lingerTimeout.nanoseconds)
    }

    private func beginDraining() {
        draining = true
        drainDeadline = csystem_monotonic_ns() + context.configuration.shutdownGracePeriod.nanoseconds
        if listenFD >= 0 {
            _ = csystem_epoll_remove(epollFD, listenFD)
            Glibc.close(listenFD)
            listenFD = -1
        }
        for case let connection? in connections {
            let action = connection.machine.shutdown(pendingOutput: connection.pendingOutput,
                                                     inputIdle: connection.inputIdle) { $0.close = true }
            perform(action, on: connection)
        }
    }

    /// Closes what is left (after the grace period) and retires the eventfd so that late worker
    /// completions are dropped rather than written to a reused descriptor.
    private func finish() {
        for case let connection? in connections { close(connection) }
        if listenFD >= 0 { Glibc.close(listenFD); listenFD = -1 }
        inbox.withLock { inbox in
            inbox.closed = true
            Glibc.close(wakeFD)
        }
        Glibc.close(epollFD)
    }
}

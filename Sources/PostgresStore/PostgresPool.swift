import Lifecycle
import Foundation
import GatewayStore
import Synchronization

/// A bounded pool of connections to one database: at most `poolSize` open, each lent to one
/// unit of work at a time. A connection the server dropped is discarded; new ones are opened on
/// demand, with a growing pause after a failed attempt (`ConnectionBackoff`).
final class PostgresPool: Sendable {
    private let url: String
    private let settings: PostgresSettings
    private let log: StoreLog
    private let idle = Mutex<[PostgresConnection]>([])
    /// The server processes of the pool's open connections: a notification one of them sent is
    /// this process's own change (`PostgresChangeFeed`).
    private let backends = Mutex<Set<Int32>>([])
    private let permits: Permits
    private let backoff: Mutex<ConnectionBackoff>

    init(url: String, settings: PostgresSettings, log: StoreLog) {
        self.url = url
        self.settings = settings
        self.log = log
        permits = Permits(max(1, settings.poolSize))
        backoff = Mutex(ConnectionBackoff(initial: .milliseconds(settings.initialBackoffMilliseconds),
                                          maximum: .milliseconds(settings.maximumBackoffMilliseconds)))
    }

    /// Lends a connection to `body`. `.busy` when none frees up in time or the database cannot
    /// be reached.
    func withConnection<R>(_ body: (PostgresConnection) throws(StoreError) -> R) throws(StoreError) -> R {
        let connection = try borrow()
        defer { giveBack(borrowed: connection) }
        return try body(connection)
    }

    /// Lends a connection until `giveBack(borrowed:)`, for a transaction that outlives one call
    /// (a group of write units of work). `.busy` as for `withConnection`.
    func borrow() throws(StoreError) -> PostgresConnection {
        guard permits.take(timeout: .milliseconds(settings.acquireTimeoutMilliseconds)) else {
            log.failure("no pooled PostgreSQL connection came free within \(settings.acquireTimeoutMilliseconds) ms")
            throw .busy
        }
        do {
            return try take()
        } catch {
            permits.giveBack()
            throw error
        }
    }

    /// Takes back a connection `borrow()` lent.
    func giveBack(borrowed connection: PostgresConnection) {
        giveBack(connection)
        permits.giveBack()
    }

    /// A connection opened outside the pool (the change feed's `LISTEN` connection), under the
    /// same backoff.
    func openDedicated() throws(StoreError) -> PostgresConnection { try open() }

    /// True when `pid` serves one of the pool's open connections.
    func isOwnBackend(_ pid: Int32) -> Bool { backends.withLock { $0.contains(pid) } }

    private func take() throws(StoreError) -> PostgresConnection {
        while let connection = idle.withLock({ $0.popLast() }) {
            if connection.isReusable { return connection }
            forget(connection)
        }
        let connection = try open()
        let pid = connection.backendPID
        backends.withLock { _ = $0.insert(pid) }
        return connection
    }

    private func forget(_ connection: PostgresConnection) {
        let pid = connection.backendPID
        backends.withLock { _ = $0.remove(pid) }
    }

    private func open() throws(StoreError) -> PostgresConnection {
        let now = ContinuousClock.now
        guard backoff.withLock({ $0.mayTry(at: now) }) else { throw .busy }
        do {
            let connection = try PostgresConnection(url: url, settings: settings, log: log)
            backoff.withLock { $0.succeeded() }
            return connection
        } catch {
            backoff.withLock { $0.failed(at: ContinuousClock.now) }
            throw error
        }
    }

    /// Keeps a connection for reuse unless the server dropped it or it is stuck in a transaction.
    private func giveBack(_ connection: PostgresConnection) {
        guard connection.isReusable else { return forget(connection) }
        idle.withLock { $0.append(connection) }
    }
}

/// Reconnect with backoff: after a failed attempt no new one is made for a pause that doubles
/// with every further failure, up to a maximum; a success resets it.
struct ConnectionBackoff: Sendable {
    let initial: Duration
    let maximum: Duration
    private var pause: Duration
    private var notBefore: ContinuousClock.Instant?

    init(initial: Duration, maximum: Duration) {
        self.initial = initial; self.maximum = maximum; pause = initial
    }

    func mayTry(at now: ContinuousClock.Instant) -> Bool { notBefore.map { now >= $0 } ?? true }

    mutating func failed(at now: ContinuousClock.Instant) {
        notBefore = now + pause
        pause = min(pause * 2, maximum)
    }

    mutating func succeeded() {
        notBefore = nil
        pause = initial
    }
}

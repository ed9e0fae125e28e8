import Foundation
import GatewayStore
import Glibc
import Synchronization
import Wire

/// The change log of a PostgreSQL store as a `ChangeFeed`: entries read through the pool, and a
/// connection of its own that `LISTEN`s, so a follower wakes as soon as another process commits.
/// Notifications only wake; the log is what is read, so one lost with a connection costs nothing
/// but the wait.
final class PostgresChangeFeed: ChangeFeed {
    private let store: PostgresStore
    private let pool: PostgresPool
    private let listener = Mutex<PostgresConnection?>(nil)

    init(store: PostgresStore, pool: PostgresPool) {
        self.store = store
        self.pool = pool
    }

    func latestSequence() throws(StoreError) -> Int64 {
        try store.readRows { tx throws(StoreError) in try tx.connection.latestChangeSequence() }
    }

    func changes(after sequence: Int64, limit: Int) throws(StoreError) -> ChangeBatch {
        try store.readRows { tx throws(StoreError) in try tx.connection.changes(after: sequence, limit: limit) }
    }

    func madeHere(_ sequence: Int64) -> Bool { store.takeOwnChange(sequence) }

    func prune(before instant: Instant) throws(StoreError) {
        try store.writeRows { tx throws(StoreError) in try tx.connection.pruneChanges(before: instant) }
    }

    func waitForChanges(timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        guard let connection = listeningConnection() else {
            // No connection to listen on: the follower polls the log after the timeout.
            Thread.sleep(until: deadline)
            return
        }
        var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = max(0, Int32(clamping: (deadline - ContinuousClock.now).milliseconds))
        _ = poll(&descriptor, 1, milliseconds)
        let (alive, _) = connection.consumeNotifications()
        if !alive { listener.withLock { $0 = nil } }
    }

    /// The `LISTEN` connection, opened (under the pool's backoff) when there is none.
    private func listeningConnection() -> PostgresConnection? {
        if let connection = listener.withLock({ $0 }), connection.isConnected { return connection }
        do {
            let connection = try pool.openDedicated()
            try connection.execute("LISTEN \(PostgresChangeLog.channel)")
            listener.withLock { $0 = connection }
            return connection
        } catch {
            listener.withLock { $0 = nil }
            return nil
        }
    }
}

extension PostgresStore: SharedGatewayStore {
    public func makeChangeFeed() -> any ChangeFeed { PostgresChangeFeed(store: self, pool: pool) }
}

extension Thread {
    static func sleep(until deadline: ContinuousClock.Instant) {
        let remaining = deadline - ContinuousClock.now
        if remaining > .zero { Thread.sleep(forTimeInterval: Double(remaining.milliseconds) / 1000) }
    }
}

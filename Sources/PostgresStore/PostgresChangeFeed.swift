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

    /// Returns when another process's commit notified, or at the timeout. A notification this
    /// process's own connections sent is passed over: its caches heard of that change when it
    /// was made (`madeHere`), so a busy writer does not make its follower read the log at every
    /// commit. Its entries are read with the next (at the latest, at the timeout).
    func waitForChanges(timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        guard let connection = listeningConnection() else {
            // No connection to listen on: the follower polls the log after the timeout.
            Thread.sleep(until: deadline)
            return
        }
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return }
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, max(1, Int32(clamping: remaining.milliseconds)))
            let (alive, senders) = connection.consumeNotifications()
            guard alive else {
                listener.withLock { $0 = nil }
                return
            }
            if senders.contains(where: { !pool.isOwnBackend($0) }) { return }
        }
    }

    /// The `LISTEN` connection, opened (under the pool's backoff) when there is none.
    private func listeningConnection() -> PostgresConnection? {
        if let connection = listener.withLock({ $0 }), connection.isConnected { return connection }
        do {
            let connection = try pool.openDedicated()
            try connection.execute("LISTEN \(store.changeChannel)")
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

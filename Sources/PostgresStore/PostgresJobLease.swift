import GatewayStore
import Synchronization

/// A `JobLease` as a session-level advisory lock (`pg_try_advisory_lock`, named by the schema
/// and the job, so gateways in other schemas of one database do not share it) on a connection of
/// its own: held for as long as that session lives, so a holder that dies (or loses its
/// connection) frees it, and the next `tryHold()` of another process takes it.
final class PostgresJobLease: JobLease {
    private let pool: PostgresPool
    private let key: String
    /// The session holding the lock, nil while not held.
    private let holder = Mutex<PostgresConnection?>(nil)

    init(pool: PostgresPool, name: String) {
        self.pool = pool
        key = "issue-gateway job " + name
    }

    func tryHold() -> Bool {
        holder.withLock { held in
            if let connection = held {
                // Still ours while the session answers; a lost session lost the lock with it.
                if (try? connection.execute("SELECT 1")) != nil { return true }
                held = nil
            }
            guard let connection = try? pool.openDedicated(),
                  let taken = try? connection.queryFirst(
                    "SELECT pg_try_advisory_lock(hashtextextended(current_schema() || ':' || \(key), 0))", { $0.bool(0) }),
                  taken else { return false }
            held = connection
            return true
        }
    }

    func release() {
        holder.withLock { $0 = nil }  // closing the session frees the lock
    }
}

extension PostgresStore {
    public func makeJobLease(name: String) -> any JobLease { PostgresJobLease(pool: pool, name: name) }
}

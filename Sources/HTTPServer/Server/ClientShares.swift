import Synchronization

/// Per-client shares of the worker pools (fairness: one client cannot take a whole pool): how many requests each source
/// address has queued or running, in all and on each pool. A client past its share is answered
/// 503 while the rest of a pool's queue stays free for others, so one client with many
/// pipelining connections cannot fill the queue and make everyone else's requests fail.
/// Only addresses with work in flight are kept: memory follows the requests, not the clients.
final class ClientShares: Sendable {
    private struct Load {
        var total = 0
        var perPool: [WorkerPoolID: Int] = [:]
    }

    private let maxInFlight: Int
    private let poolShares: [WorkerPoolID: Int]
    private let loads = Mutex<[String: Load]>([:])

    init(_ configuration: HTTPServerConfiguration) {
        maxInFlight = configuration.maxInFlightPerClient
        poolShares = configuration.workerPools.mapValues {
            ClientShares.share(of: $0, fraction: configuration.maxPoolSharePerClient)
        }
    }

    /// The jobs one client may have on a pool: its fraction of the threads and the queue, at least one.
    static func share(of pool: WorkerPoolSize, fraction: Double) -> Int {
        max(1, Int((Double(pool.threads + pool.queueLimit) * fraction).rounded(.down)))
    }

    /// Claims a place for one job of `client` on `pool`; false past either of its limits.
    /// A request without an address (not from a socket) is not limited.
    func admit(_ client: String?, to pool: WorkerPoolID) -> Bool {
        guard let client else { return true }
        let share = poolShares[pool] ?? Int.max
        return loads.withLock { loads in
            var load = loads[client] ?? Load()
            let onPool = load.perPool[pool] ?? 0
            guard load.total < maxInFlight, onPool < share else { return false }
            load.total += 1
            load.perPool[pool] = onPool + 1
            loads[client] = load
            return true
        }
    }

    /// Gives back a place `admit` claimed, once its job has run or was not queued.
    func release(_ client: String?, from pool: WorkerPoolID) {
        guard let client else { return }
        loads.withLock { loads in
            guard var load = loads[client] else { return }
            load.total -= 1
            load.perPool[pool] = (load.perPool[pool] ?? 1) - 1
            loads[client] = load.total > 0 ? load : nil
        }
    }

    /// Addresses with work in flight (for tests and metrics).
    var clients: Int { loads.withLock { $0.count } }
}

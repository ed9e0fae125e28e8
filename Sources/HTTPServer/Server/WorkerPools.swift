/// The server's worker pools by name: the standard one and the application's bulkheads
/// (`HTTPServerConfiguration.workerPools`). Each has its own threads and queue, so a pool whose
/// handlers wait long (calls to another service) cannot take the threads of another.
public final class WorkerPools: Sendable {
    private let pools: [WorkerPoolID: WorkerPool]

    /// Starts every pool's threads.
    public init(_ configuration: HTTPServerConfiguration) {
        pools = configuration.workerPools.reduce(into: [:]) { pools, entry in
            pools[entry.key] = WorkerPool(name: entry.key.name, threads: entry.value.threads,
                                          queueLimit: entry.value.queueLimit)
        }
    }

    /// The pools the configuration sizes.
    public var names: Set<WorkerPoolID> { Set(pools.keys) }

    /// Queues `job` on `pool`; false when its queue is full, it is stopping, or it does not exist.
    public func submit(to pool: WorkerPoolID, _ job: @escaping @Sendable () -> Void) -> Bool {
        pools[pool]?.submit(job) ?? false
    }

    /// Jobs waiting for a thread on every pool together.
    var queued: Int { pools.values.reduce(0) { $0 + $1.queued } }

    /// Runs what is queued, then stops and joins every pool's threads.
    public func shutdown() {
        for pool in pools.values { pool.shutdown() }
    }

    /// The first route whose pool is not sized here.
    public func unknownPool(in router: Router) -> WorkerPoolID? {
        for route in router.routes {
            if case .pool(let id) = route.execution, pools[id] == nil { return id }
        }
        return nil
    }
}

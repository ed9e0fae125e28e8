import Synchronization

/// The pooled calls now running, by what they do (a refresh of one account on one store's pool):
/// a second caller asking for the same work joins the running call and waits for its result
/// instead of queueing the work again. A client retrying a slow refresh (after `storeUnavailable`) therefore
/// waits for the one already under way rather than starting another of the same account.
package final class RunningCalls: Sendable {
    private let running = Mutex<[String: PooledCall]>([:])

    package init() {}

    /// The call running for `key`, or a new one of `job` queued on `pool`. A key is free again
    /// as soon as its job ends (or could not be queued).
    package func join(_ key: String, _ service: String, on pool: WorkPool,
                      _ job: @escaping @Sendable () throws(GatewayError) -> Void) -> PooledCall {
        let (call, isNew) = running.withLock { running -> (PooledCall, Bool) in
            if let call = running[key] { return (call, false) }
            let call = PooledCall(service)
            running[key] = call
            return (call, true)
        }
        guard isNew else { return call }
        // Started outside the lock: an inline pool runs the job, and its end, right here.
        let queued = call.start(on: pool) { [self] () throws(GatewayError) in
            defer { forget(key, call) }
            try job()
        }
        if !queued { forget(key, call) }
        return call
    }

    /// Calls running now.
    package var count: Int { running.withLock { $0.count } }

    private func forget(_ key: String, _ call: PooledCall) {
        running.withLock { running in
            if running[key] === call { running[key] = nil }
        }
    }
}

import Lifecycle

/// A call to an outside service started on that service's own pool by work running elsewhere (a
/// reader's refresh, on the App Store pool, asking Stripe and Google too): each service keeps its
/// bulkhead, the calls run at the same time, and the caller waits for each within its deadline.
package final class PooledCall: Sendable {
    private let service: String
    private let outcome = Condition<Result<Void, APIError>?>(nil)

    /// Queues `job` on `pool`; a full queue is reported by `wait` as the service being unavailable.
    package init(_ service: String, on pool: WorkPool, _ job: @escaping @Sendable () throws(APIError) -> Void) {
        self.service = service
        let queued = pool.submit { [outcome] in
            let result: Result<Void, APIError>
            do throws(APIError) {
                try job()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            outcome.broadcast()
        }
        if !queued {
            outcome.withLock { $0 = .failure(.storeUnavailable("\(service) is busy with other calls; try again")) }
        }
    }

    /// The call's own error, or 503 `store_unavailable` (with `Retry-After`) when its pool was full
    /// or it has not ended by `deadline` (it goes on, and stores what it finds, unwaited for).
    package func wait(until deadline: ContinuousClock.Instant) throws(APIError) {
        let left = max(.zero, deadline - .now)
        let result = outcome.withLock(when: { $0 != nil }, timeout: left) { $0 }
        switch result {
        case .success?: return
        case .failure(let error)?: throw error
        case nil: throw .storeUnavailable("\(service) did not answer in time; try again")
        }
    }
}

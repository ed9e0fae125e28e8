import Lifecycle

/// A call to an outside service started on that service's own pool by work running elsewhere (a
/// reader's refresh, on the App Store pool, asking Stripe and Google too): each service keeps its
/// bulkhead, the calls run at the same time, and the caller waits for each within its deadline.
/// Any number of callers may wait for one call (`RunningCalls`).
package final class PooledCall: Sendable {
    private let service: String
    private let outcome = Condition<Result<Void, GatewayError>?>(nil)

    /// Queues `job` on `pool`; a full queue is reported by `wait` as the service being unavailable.
    package convenience init(_ service: String, on pool: WorkPool, _ job: @escaping @Sendable () throws(GatewayError) -> Void) {
        self.init(service)
        start(on: pool, job)
    }

    /// A call not started yet: `start` queues its job.
    init(_ service: String) { self.service = service }

    /// Queues `job` on `pool`; false when the queue was full (the call then ended as unavailable).
    @discardableResult
    func start(on pool: WorkPool, _ job: @escaping @Sendable () throws(GatewayError) -> Void) -> Bool {
        let queued = pool.submit { [self] in
            do throws(GatewayError) {
                try job()
                end(.success(()))
            } catch {
                end(.failure(error))
            }
        }
        if !queued { end(.failure(.storeUnavailable("\(service) is busy with other calls; try again"))) }
        return queued
    }

    private func end(_ result: Result<Void, GatewayError>) {
        outcome.withLock { $0 = result }
        outcome.broadcast()
    }

    /// The call's own error, or `storeUnavailable` (with its wait) when its pool was full
    /// or it has not ended by `deadline` (it goes on, and stores what it finds, unwaited for).
    package func wait(until deadline: ContinuousClock.Instant) throws(GatewayError) {
        let left = max(.zero, deadline - .now)
        let result = outcome.withLock(when: { $0 != nil }, timeout: left) { $0 }
        switch result {
        case .success?: return
        case .failure(let error)?: throw error
        case nil: throw .storeUnavailable("\(service) did not answer in time; try again")
        }
    }
}

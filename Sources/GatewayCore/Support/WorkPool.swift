/// Where work that blocks on another service runs: the App Store calls of the status poller and
/// of requested backfills go to the App Store pool the routes that call Apple use, sized for
/// waiting, instead of threads of their own.
package struct WorkPool: Sendable {
    private let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Bool

    /// `enqueue` queues a job and never blocks; false when the pool's queue is full or it stops.
    package init(_ enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Bool) { self.enqueue = enqueue }

    /// Queues `job`; false when it was not queued (full, or stopping).
    package func submit(_ job: @escaping @Sendable () -> Void) -> Bool { enqueue(job) }
}

extension WorkPool {
    /// Runs each job at once on the submitting thread: for callers without pools (tools, tests
    /// that build the core alone).
    package static let inline = WorkPool { job in
        job()
        return true
    }
}

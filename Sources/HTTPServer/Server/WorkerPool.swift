import Lifecycle

/// A fixed set of threads taking jobs from a bounded queue, for handlers that may block.
/// `submit` never blocks: when the queue is full it says no, and the caller answers 503.
final class WorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct Queue: Sendable {
        /// A job holds its request (a body in memory, a spooled body's file and its share of the
        /// spool budget) and must not outlive its run: `FIFO` lets go of it when it is taken.
        var jobs = FIFO<Job>()
        var stopping = false

        var waiting: Int { jobs.count }

        /// The oldest job, or nil once the queue is empty and the pool stopping (the worker ends).
        mutating func next() -> Job? { jobs.popFirst() }
    }

    private let queue = Condition(Queue())
    private let queueLimit: Int
    private let threads: [JoinableThread]

    init(name: String, threads count: Int, queueLimit: Int) {
        self.queueLimit = queueLimit
        threads = (0..<max(1, count)).map { [queue] i in
            JoinableThread(name: "http-\(name)-\(i)") { WorkerPool.work(queue) }
        }
    }

    /// Queues `job`; false when the queue is full or the pool is stopping.
    func submit(_ job: @escaping Job) -> Bool {
        let queued = queue.withLock { queue in
            guard !queue.stopping, queue.waiting < queueLimit else { return false }
            queue.jobs.append(job)
            return true
        }
        if queued { queue.signal() }
        return queued
    }

    /// Jobs waiting for a thread.
    var queued: Int { queue.withLock { $0.waiting } }

    /// Runs what is queued, then stops and joins the threads.
    func shutdown() {
        queue.withLock { $0.stopping = true }
        queue.broadcast()
        for thread in threads { thread.join() }
    }

    private static func work(_ queue: Condition<Queue>) {
        while let job = queue.withLock(when: { $0.waiting > 0 || $0.stopping }, { $0.next() }) { job() }
    }
}

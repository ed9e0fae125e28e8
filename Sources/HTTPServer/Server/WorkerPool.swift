import Foundation

/// A fixed set of threads taking jobs from a bounded queue, for handlers that may block.
/// `submit` never blocks: when the queue is full it says no, and the caller answers 503.
final class WorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var stopping = false
    }

    private let condition = NSCondition()
    nonisolated(unsafe) private var state = State()  // guarded by `condition`
    private let queueLimit: Int
    nonisolated(unsafe) private var threads: [JoinableThread] = []  // written once in init

    init(name: String, threads count: Int, queueLimit: Int) {
        self.queueLimit = queueLimit
        threads = (0..<max(1, count)).map { i in JoinableThread(name: "http-\(name)-\(i)") { [self] in self.work() } }
    }

    /// Queues `job`; false when the queue is full or the pool is stopping.
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !state.stopping, state.jobs.count - state.head < queueLimit else { return false }
        state.jobs.append(job)
        condition.signal()
        return true
    }

    /// Jobs waiting for a thread.
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.jobs.count - state.head
    }

    /// Runs what is queued, then stops and joins the threads.
    func shutdown() {
        condition.lock()
        state.stopping = true
        condition.broadcast()
        condition.unlock()
        for thread in threads { thread.join() }
    }

    private func work() {
        while let job = next() { job() }
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while state.head == state.jobs.count {
            if state.stopping { return nil }
            condition.wait()
        }
        let job = state.jobs[state.head]
        state.head += 1
        if state.head > 1024 && state.head * 2 > state.jobs.count {
            state.jobs.removeFirst(state.head)
            state.head = 0
        }
        return job
    }
}

import Lifecycle

/// Group commit (decision 109): write units of work queued for a backend's writer share one
/// transaction and one durable commit, each in a savepoint of its own. A unit that fails is
/// rolled back to its savepoint and its caller gets its error at once (the combiner, below, once
/// its group has ended); the others' work is kept.
/// When no one else waits, or the group reached its limits (`GroupCommitLimits`), the group
/// commits; a caller whose unit succeeded returns only once its group's commit is durable, and
/// gets the commit's error when it failed.
///
/// The writer is combining (decision 126): the caller that finds it free runs its own unit and
/// then, on its own thread, the units of the callers queued meanwhile, in the order they came,
/// and commits them. A queued caller sleeps until its group ended, or until it is handed the
/// writer for the next group. So consecutive units of a group run without a thread switch
/// between them; the writer passes once a group, not once a unit.
///
/// A backend whose transactions commit independently may run several groups at once
/// (`GroupTransactions.concurrentGroups`: PostgreSQL's connections, decision 127), each with a
/// combiner of its own taking the next queued unit; SQLite's one writer runs one.
///
/// So nothing is acknowledged before it is durable, one fsync serves every writer that queued
/// during the previous group, and a writer alone commits at once, as without groups.
public final class GroupCommit<Backend: GroupTransactions>: Sendable {
    private let backend: Backend
    private let limits: GroupCommitLimits
    /// Groups run at once at most (`backend.concurrentGroups`, at least one).
    private let groupsAtOnce: Int
    /// The queue at the writer and every job's state. A caller waits on its job's channel, so
    /// ending a group wakes its own callers, not every thread queued at the writer.
    private let queue = Condition(Queue(), channels: GroupCommit.channels)
    private static var channels: Int { 64 }

    public init(_ backend: Backend, limits: GroupCommitLimits) {
        self.backend = backend
        self.limits = limits
        groupsAtOnce = max(1, backend.concurrentGroups)
    }

    /// Runs `body` as one unit of work in a group, and returns once its group committed. A unit
    /// the backend says may succeed in a new transaction (`runsAgain`) ends its group and runs
    /// again in a later one, after `beforeRunningAgain`; so does every unit of a group whose
    /// commit failed that way (the database rolled all of it back).
    ///
    /// `body` may run on the thread of another caller, the group's combiner, while this one
    /// waits: it must not depend on the thread it runs on.
    public func run<R>(_ body: (Backend.Transaction) throws(StoreError) -> R) throws(StoreError) -> R {
        var attempts = 0
        while true {
            attempts += 1
            var value: R?
            let outcome = withoutActuallyEscaping(body) { body in
                // The job does not outlive this call: `submit` returns once the job ended.
                submit(Job { (transaction) throws(StoreError) in value = try body(transaction) })
            }
            switch outcome {
            case .committed:
                guard let value else { throw .failed }
                return value
            case .failed(let error, runAgain: false): throw error
            case .failed(_, runAgain: true): try backend.beforeRunningAgain(attempt: attempts)
            }
        }
    }

    /// Callers waiting for the writer (not counting the group being run).
    public var queuedUnits: Int { queue.withLock { $0.count } }

    private enum Outcome { case committed, failed(StoreError, runAgain: Bool) }

    /// A job's life: queued at the writer, handed the writer to combine the next group (its own
    /// unit first), or ended with its outcome.
    private enum JobState {
        case queued, combining, ended(Outcome)

        var isQueued: Bool { if case .queued = self { true } else { false } }
    }

    /// One caller's unit of work. `state` and `channel` are read and written under the queue's
    /// lock; `body` only by the combiner, which lets go of it when the job ends: the caller's
    /// closure must not outlive its call (`withoutActuallyEscaping` checks).
    private final class Job: @unchecked Sendable {
        private var body: ((Backend.Transaction) throws(StoreError) -> Void)?
        private(set) var state = JobState.queued
        var channel = 0

        init(_ body: @escaping (Backend.Transaction) throws(StoreError) -> Void) { self.body = body }

        func run(on transaction: Backend.Transaction) throws(StoreError) { try body?(transaction) }

        func hand() { state = .combining }

        func end(_ outcome: Outcome) {
            state = .ended(outcome)
            body = nil
        }
    }

    /// The callers queued at the writer, first come first, and how many groups are being combined.
    private struct Queue: Sendable {
        private var jobs = FIFO<Job>()
        private var tickets = 0
        var combining = 0

        var count: Int { jobs.count }

        mutating func append(_ job: Job) {
            job.channel = tickets % GroupCommit.channels
            tickets &+= 1
            jobs.append(job)
        }

        mutating func popFirst() -> Job? { jobs.popFirst() }
    }

    /// Runs `job` in a group: at once when fewer groups than the backend allows are being
    /// combined, else when handed the writer or in a group another caller combines. Returns the
    /// job's outcome.
    private func submit(_ job: Job) -> Outcome {
        let combines = queue.withLock { q in
            if q.combining >= groupsAtOnce {
                q.append(job)
                return false
            }
            q.combining += 1
            return true
        }
        if !combines {
            let state = queue.withLock(when: { _ in !job.state.isQueued }, channel: job.channel) { _ in job.state }
            if case .ended(let outcome) = state { return outcome }
        }
        combineGroup(startingWith: job)
        return queue.withLock { _ in
            if case .ended(let outcome) = job.state { return outcome }
            return .failed(.failed, runAgain: false)
        }
    }

    /// Runs a group on the writer: `first`, then the jobs queued meanwhile while the group is
    /// within its limits; commits it, ends its jobs and hands the writer to the next in line.
    private func combineGroup(startingWith first: Job) {
        defer { passWriter() }
        let transaction: Backend.Transaction
        do throws(StoreError) {
            transaction = try backend.beginGroup()
        } catch {
            end([first], .failed(error, runAgain: false))
            return
        }
        let opened = ContinuousClock.now
        var kept: [Job] = []
        var mustRunAgain: Job?
        var previousKept = true
        var units = 0
        var job = first
        while true {
            if units > 0 {
                do throws(StoreError) {
                    try backend.beginUnit(on: transaction, previousKept: previousKept)
                } catch {
                    backend.abandonGroup(transaction)
                    end(kept + [job], .failed(error, runAgain: false))
                    return
                }
            }
            units += 1
            do throws(StoreError) {
                try job.run(on: transaction)
                try backend.checkUnit(on: transaction)
                kept.append(job)
                previousKept = true
            } catch {
                let again = backend.runsAgain(error, on: transaction)
                do throws(StoreError) {
                    try backend.rollBackUnit(on: transaction)
                } catch let lost {
                    // The transaction itself is lost: every unit kept in it is lost with it.
                    backend.abandonGroup(transaction)
                    end(kept, .failed(lost, runAgain: false))
                    end([job], again ? .failed(error, runAgain: true) : .failed(lost, runAgain: false))
                    return
                }
                previousKept = false
                if again {
                    // A unit that must run again needs a new snapshot: its group ends now.
                    mustRunAgain = job
                    break
                }
                end([job], .failed(error, runAgain: false))
            }
            guard units < limits.maxUnits, ContinuousClock.now - opened < limits.maxOpen,
                  let next = queue.withLock({ $0.popFirst() }) else { break }
            job = next
        }
        do throws(StoreError) {
            try backend.commitGroup(transaction)
            end(kept, .committed)
        } catch {
            // Asked before the rollback, which would clear what the failure was.
            let again = backend.runsAgain(error, on: transaction)
            backend.abandonGroup(transaction)
            end(kept, .failed(error, runAgain: again))
        }
        if let mustRunAgain { end([mustRunAgain], .failed(.busy, runAgain: true)) }
    }

    /// Ends `jobs` with `outcome` and wakes their callers.
    private func end(_ jobs: [Job], _ outcome: Outcome) {
        guard !jobs.isEmpty else { return }
        let channels = queue.withLock { _ in
            for job in jobs { job.end(outcome) }
            return Set(jobs.map(\.channel))
        }
        for channel in channels { queue.broadcast(channel: channel) }
    }

    /// Hands the group's turn to the first caller in line, or ends it.
    private func passWriter() {
        let next: Job? = queue.withLock { q in
            guard let job = q.popFirst() else {
                q.combining -= 1
                return nil
            }
            job.hand()
            return job
        }
        if let next { queue.broadcast(channel: next.channel) }
    }
}

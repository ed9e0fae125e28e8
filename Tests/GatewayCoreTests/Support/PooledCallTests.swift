import GatewayCore
import Synchronization
import Testing

/// A call started on another service's pool and waited for (a refresh asking Stripe and Google on
/// theirs): a full pool or a call past the deadline is 503 `store_unavailable` with `Retry-After`;
/// a second asker for the same work joins the running call.
@Suite struct PooledCallTests {
    static func outcome(_ call: PooledCall, waiting: Duration) -> GatewayError? {
        do throws(GatewayError) {
            try call.wait(until: .now + waiting)
            return nil
        } catch {
            return error
        }
    }

    static func isUnavailable(_ error: GatewayError?) -> Bool {
        guard case .storeUnavailable? = error else { return false }
        return error?.retryAfterSeconds != nil
    }

    @Test func aFullPoolIsStoreUnavailable() {
        let call = PooledCall("Stripe", on: WorkPool { _ in false }) { () throws(GatewayError) in }
        #expect(Self.isUnavailable(Self.outcome(call, waiting: .seconds(5))))
    }

    @Test func aCallNotEndedByTheDeadlineIsStoreUnavailable() {
        // Queued and never run: a pool whose threads are all stalled.
        let call = PooledCall("Google Play", on: WorkPool { _ in true }) { () throws(GatewayError) in }
        #expect(Self.isUnavailable(Self.outcome(call, waiting: .milliseconds(50))))
    }

    /// Queues jobs and runs them when told: a pool whose threads are all busy until then.
    final class HeldPool: Sendable {
        private let jobs = Mutex<[@Sendable () -> Void]>([])
        var pool: WorkPool { WorkPool { [self] job in jobs.withLock { $0.append(job) }; return true } }
        var queued: Int { jobs.withLock { $0.count } }
        func runAll() { jobs.withLock { jobs in defer { jobs = [] }; return jobs }.forEach { $0() } }
    }

    @Test func aSecondAskerJoinsTheRunningCallInsteadOfQueueingAnother() {
        let held = HeldPool()
        let running = RunningCalls()
        let runs = Atomic<Int>(0)
        let job: @Sendable () throws(GatewayError) -> Void = { runs.add(1, ordering: .relaxed) }
        let first = running.join("stripe a", "Stripe", on: held.pool, job)
        let second = running.join("stripe a", "Stripe", on: held.pool, job)
        let other = running.join("stripe b", "Stripe", on: held.pool, job)
        #expect(first === second && first !== other)
        #expect(held.queued == 2, "one job per key")
        #expect(Self.isUnavailable(Self.outcome(second, waiting: .milliseconds(20))), "not run yet: the joiner's own deadline")
        held.runAll()
        #expect(runs.load(ordering: .relaxed) == 2)
        #expect(Self.outcome(first, waiting: .seconds(5)) == nil && Self.outcome(second, waiting: .seconds(5)) == nil)
        #expect(running.count == 0, "an ended call frees its key")
        let again = running.join("stripe a", "Stripe", on: held.pool, job)
        #expect(again !== first && held.queued == 1)
        held.runAll()
    }

    @Test func aJoinedCallsErrorReachesEveryAskerAndAFullPoolFreesTheKey() {
        let held = HeldPool()
        let running = RunningCalls()
        let failing: @Sendable () throws(GatewayError) -> Void = { () throws(GatewayError) in throw .forbidden("no") }
        let first = running.join("googlePlay a", "Google Play", on: held.pool, failing)
        let second = running.join("googlePlay a", "Google Play", on: held.pool, failing)
        held.runAll()
        #expect(Self.outcome(first, waiting: .seconds(5)) == .forbidden("no"))
        #expect(Self.outcome(second, waiting: .seconds(5)) == .forbidden("no"))
        let refused = running.join("googlePlay a", "Google Play", on: WorkPool { _ in false }) { () throws(GatewayError) in }
        #expect(Self.isUnavailable(Self.outcome(refused, waiting: .seconds(5))))
        #expect(running.count == 0)
    }

    @Test func theCallsOwnAnswerIsPassedOn() {
        let failing = PooledCall("Stripe", on: .inline) { () throws(GatewayError) in throw .forbidden("no") }
        #expect(Self.outcome(failing, waiting: .seconds(5)) == .forbidden("no"))
        let fine = PooledCall("Stripe", on: .inline) { () throws(GatewayError) in }
        #expect(Self.outcome(fine, waiting: .seconds(5)) == nil)
    }
}

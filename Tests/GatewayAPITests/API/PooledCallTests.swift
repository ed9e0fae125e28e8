import GatewayCore
import Testing

/// A call started on another service's pool and waited for (a refresh asking Stripe and Google on
/// theirs): a full pool or a call past the deadline is 503 `store_unavailable` with `Retry-After`.
@Suite struct PooledCallTests {
    static func outcome(_ call: PooledCall, waiting: Duration) -> APIError? {
        do throws(APIError) {
            try call.wait(until: .now + waiting)
            return nil
        } catch {
            return error
        }
    }

    static func isUnavailable(_ error: APIError?) -> Bool {
        guard let error else { return false }
        return error.status == 503 && error.code == "store_unavailable" && error.headers.contains { $0.0 == "Retry-After" }
    }

    @Test func aFullPoolIsStoreUnavailable() {
        let call = PooledCall("Stripe", on: WorkPool { _ in false }) { () throws(APIError) in }
        #expect(Self.isUnavailable(Self.outcome(call, waiting: .seconds(5))))
    }

    @Test func aCallNotEndedByTheDeadlineIsStoreUnavailable() {
        // Queued and never run: a pool whose threads are all stalled.
        let call = PooledCall("Google Play", on: WorkPool { _ in true }) { () throws(APIError) in }
        #expect(Self.isUnavailable(Self.outcome(call, waiting: .milliseconds(50))))
    }

    @Test func theCallsOwnAnswerIsPassedOn() {
        let failing = PooledCall("Stripe", on: .inline) { () throws(APIError) in throw .forbidden("no") }
        #expect(Self.outcome(failing, waiting: .seconds(5))?.status == 403)
        let fine = PooledCall("Stripe", on: .inline) { () throws(APIError) in }
        #expect(Self.outcome(fine, waiting: .seconds(5)) == nil)
    }
}

import OutboundHTTP
import Testing

/// The store clients' retry decision: their own backoff, or the wait the service named when it
/// is short; the call ends at once when attempts are spent, the deadline would pass, or the
/// service asked for more than the longest backoff.
@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(maximumAttempts: 4, initialBackoff: 0.25, maximumBackoff: 4)

    @Test func withoutAServiceWaitTheBackoffDoubles() {
        #expect(policy.pause(afterFailures: 1, serviceWait: nil, remaining: 20) == 0.25)
        #expect(policy.pause(afterFailures: 3, serviceWait: nil, remaining: 20) == 1)
    }

    @Test func aShortServiceWaitIsHonoured() {
        #expect(policy.pause(afterFailures: 1, serviceWait: 2, remaining: 20) == 2)
        #expect(policy.pause(afterFailures: 1, serviceWait: 0, remaining: 20) == 0)
    }

    @Test func aServiceWaitLongerThanTheLongestBackoffEndsTheCall() {
        #expect(policy.pause(afterFailures: 1, serviceWait: 7, remaining: 20) == nil)
    }

    @Test func spentAttemptsOrAPassedDeadlineEndTheCall() {
        #expect(policy.pause(afterFailures: 4, serviceWait: nil, remaining: 20) == nil)
        #expect(policy.pause(afterFailures: 2, serviceWait: nil, remaining: 0.4) == nil)
        #expect(policy.pause(afterFailures: 1, serviceWait: 3, remaining: 2) == nil)
    }
}

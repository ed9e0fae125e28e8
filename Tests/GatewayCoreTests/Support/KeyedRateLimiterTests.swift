@testable import GatewayConfiguration
import Testing
import Wire

/// The token bucket per key that rate-limited routes share.
@Suite struct KeyedRateLimiterTests {
    private let start = Instant(secondsSinceEpoch: 1_800_000_000)

    @Test func aKeyTakesItsBurstThenWaitsForTheRefillWhileOtherKeysAreUntouched() {
        let limiter = KeyedRateLimiter<String>(.init(perMinute: 6, burst: 2))
        #expect(limiter.take("a", now: start) == .allowed)
        #expect(limiter.take("a", now: start) == .allowed)
        #expect(limiter.take("a", now: start) == .limited(retryAfterSeconds: 10))
        #expect(limiter.take("b", now: start) == .allowed)
        #expect(limiter.take("a", now: start.adding(seconds: 4)) == .limited(retryAfterSeconds: 6))
        #expect(limiter.take("a", now: start.adding(seconds: 10)) == .allowed)
        // A clock that steps back refills nothing and breaks nothing.
        #expect(limiter.take("a", now: start) == .limited(retryAfterSeconds: 10))
    }

    @Test func itKeepsAtMostItsNumberOfKeys() {
        let limiter = KeyedRateLimiter<Int>(.init(perMinute: 1, burst: 1), maxKeys: 100)
        for key in 0..<10_000 { _ = limiter.take(key, now: start) }
        #expect(limiter.keyCount == 100)
        // The newest keys are the ones kept.
        #expect(limiter.take(9_999, now: start) == .limited(retryAfterSeconds: 60))
    }
}

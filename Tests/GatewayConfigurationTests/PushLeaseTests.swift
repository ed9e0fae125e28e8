@testable import GatewayConfiguration
@testable import GatewayPush
import Testing

/// A push job's lease must outlast a page's worst case, or a second process takes the job over
/// while the first still sends, and the same page is pushed twice.
@Suite struct PushLeaseTests {
    @Test func aPagesWorstCaseFitsInTheLease() {
        let apns = APNsClient.Settings(productionURL: "https://apns.invalid", sandboxURL: "https://apns.invalid", topic: "t")
        let timeout = CurlHTTP2Client.Settings().timeout
        var worst = timeout * apns.attempts
        for attempt in 2...max(2, apns.attempts) { worst += apns.backoff.delay(afterFailures: attempt - 1) }
        #expect(worst < PushFanOut.Settings().lease, "every attempt timing out takes \(worst)")
    }
}

import Entitle
import Testing

/// E19: a subscription says whether, and into which product, it renews. One the store gave up
/// for billing (expiration intent 2, no billing retry) will not renew, whatever auto-renew says.
@Suite struct RuleWillRenewTests {
    let txs = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-28")]
    let policy = EntitlementPolicy(graceDays: 7)

    @Test func e19ExpiredForBillingWithoutRetryWillNotRenewEvenInTheGatewaysOwnGrace() {
        let gaveUp = Fx.renewal(autoRenew: true, intent: .billing, billingRetry: false)
        for now in ["2012-04-02", "2012-04-10"] {  // inside the gateway's own grace, then after it
            let status = Fx.evaluate(Fx.magazine, txs, [gaveUp], policy: policy, now: now).subscriptions.first
            #expect(status?.willRenew == false, "\(now)")
            #expect(status?.renewsInto == nil, "\(now)")
        }
    }

    @Test func e19BillingRetryStillRenewsInGraceAndAfterIt() {
        let retrying = Fx.renewal(autoRenew: true, billingRetry: true)
        for now in ["2012-04-02", "2012-04-10"] {
            let status = Fx.evaluate(Fx.magazine, txs, [retrying], policy: policy, now: now).subscriptions.first
            #expect(status?.willRenew == true, "\(now)")
            #expect(status?.renewsInto == "monthly.sub", "\(now)")
        }
    }
}

import Testing
import Entitle
import IssueCatalog

/// E19: states and entitlement codes.
@Suite struct RuleStateTests {
    let catalog = Fx.magazine

    func state(_ txs: [Transaction], _ renewal: RenewalInfo?, now: String,
               policy: EntitlementPolicy = .default) throws -> SubscriptionStatus {
        try #require(Fx.evaluate(catalog, txs, renewal.map { [$0] } ?? [], policy: policy, now: now).subscriptions.first)
    }

    let live = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20")]

    @Test(arguments: [
        (Fx.renewal(), "2012-03-01", SubscriptionState.active, 1.0),
        (Fx.renewal(autoRenew: false), "2012-03-01", .activeAutoRenewOff, 2.0),
        (Fx.renewal(billingRetry: true, grace: "2012-04-01"), "2012-03-25", .gracePeriod, 3.0),
        (Fx.renewal(billingRetry: true), "2012-03-25", .billingRetry, -1.0),
        (Fx.renewal(autoRenew: false, intent: .voluntary), "2012-04-01", .expiredVoluntary, -2.0),
        (Fx.renewal(intent: .billing), "2012-04-01", .expiredBilling, -3.0),
        (Fx.renewal(intent: .priceIncrease), "2012-04-01", .expiredPriceIncrease, -4.0),
        (Fx.renewal(intent: .productUnavailable), "2012-04-01", .expiredProductUnavailable, -5.0),
        (Fx.renewal(intent: .other), "2012-04-01", .expiredOther, -6.0),
    ])
    func e19StatesAndCodes(renewal: RenewalInfo, now: String, expected: SubscriptionState, code: Double) throws {
        let s = try state(live, renewal, now: now)
        #expect(s.state == expected && s.entitlementCode == code)
    }

    @Test func e19RevokedIsMinusSeven() throws {
        let s = try state([Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20", revoked: "2012-03-01")],
                          Fx.renewal(), now: "2012-03-05")
        #expect(s.state == .revoked && s.entitlementCode == -7 && !s.willRenew)
    }

    @Test(arguments: [(OfferKind.freeTrial, 1.1), (.introductory, 1.2), (.promotional, 1.3), (.offerCode, 1.4),
                      (.winBack, 1.5)])
    func e19FractionsNameTheOffer(offer: OfferKind, code: Double) throws {
        let s = try state([Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20", offer: offer)], Fx.renewal(), now: "2012-03-01")
        #expect(s.entitlementCode == code)
    }

    @Test func e19NegativeCodesKeepTheFraction() throws {
        let s = try state([Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20", offer: .introductory)],
                          Fx.renewal(intent: .billing), now: "2012-04-01")
        #expect(s.entitlementCode == -3.2)
    }

    @Test func e19RenewsIntoCountsRenewalsAndTracksIntroEligibility() throws {
        var renewal = Fx.renewal()
        renewal.autoRenewProductId = "yearly.sub"
        let s = try state([Fx.tx("t1", "monthly.sub", "2012-01-20", "2012-02-20", offer: .freeTrial),
                           Fx.tx("t2", "monthly.sub", "2012-02-20", "2012-03-20")], renewal, now: "2012-03-01")
        #expect(s.willRenew && s.renewsInto == "yearly.sub" && s.renewals == 1)
        #expect(s.trialOrIntroConsumedInGroup && s.subscriptionGroup == "group" && s.productId == "monthly.sub")
        let fresh = try state(live, Fx.renewal(), now: "2012-03-01")
        #expect(!fresh.trialOrIntroConsumedInGroup && fresh.renewals == 0)
    }
}

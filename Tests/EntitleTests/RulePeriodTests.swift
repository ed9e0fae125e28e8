import Testing
import Entitle
import IssueCatalog

/// E5–E11: where periods come from.
@Suite struct RulePeriodTests {
    func period(_ a: String, _ b: String) -> ActivePeriod { ActivePeriod(start: Fx.at(a), end: Fx.at(b)) }

    @Test func e5PeriodsComeFromTheStoreNotFromArithmetic() {
        // A 7-day trial then a renewal extended by 5 days: nothing here is "purchase + 1 month".
        let r = Fx.evaluate(Fx.magazine, [
            Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-02-27", offer: .freeTrial),
            Fx.tx("t2", "monthly.sub", "2012-02-27", "2012-04-01T00:00:01Z"),
        ], now: "2012-09-15")
        #expect(r.periods(of: "mag") == [period("2012-02-20", "2012-04-01T00:00:01Z")])
        #expect(r.entitledIds("mag") == ["2012-02", "2012-03", "2012-04"])
    }

    @Test func e6ARefundIsAsIfNeverBoughtUntilReversed() {
        var refunded = Fx.tx("t2", "monthly.sub", "2012-03-20", "2012-04-20", revoked: "2012-03-25")
        let first = Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20")
        let r = Fx.evaluate(Fx.magazine, [first, refunded], now: "2012-09-15")
        #expect(r.periods(of: "mag") == [period("2012-02-20", "2012-03-20")])
        #expect(r.entitledIds("mag") == ["2012-02", "2012-03"])
        #expect(r.reasons("mag", "2012-04") == [.refunded])
        refunded.revocationDate = nil
        let reversed = Fx.evaluate(Fx.magazine, [first, refunded], now: "2012-09-15")
        #expect(reversed.entitledIds("mag") == ["2012-02", "2012-03", "2012-04"])
    }

    @Test func e7AnUpgradeCutsTheOldProductAndTheNewOneCoversItsGrants() {
        let catalog = Catalog(
            publications: [Publication(id: "mag", title: "M"), Publication(id: "news", title: "N")],
            products: [Fx.autoRenewable("basic", grants: ["mag"], level: 2),
                       Fx.autoRenewable("bundle", grants: ["news"], level: 1)],
            issues: Fx.monthlyIssues("mag", year: 2012, months: 1...12) + Fx.monthlyIssues("news", year: 2012, months: 1...12))
        let r = Fx.evaluate(catalog, [
            Fx.tx("t1", "basic", "2012-02-20", "2012-05-20", upgraded: true),
            Fx.tx("t2", "bundle", "2012-03-10", "2012-06-10"),
        ], now: "2012-09-15")
        #expect(r.periods(of: "mag") == [period("2012-02-20", "2012-03-10")])
        #expect(r.periods(of: "news") == [period("2012-03-10", "2012-06-10")])
        #expect(r.entitledIds("mag") == ["2012-02", "2012-03"])
        #expect(r.reasons("mag", "2012-04") == [.notSubscribedWhenPublished])
        // With a revocation date, the cut is there instead.
        let cutByRevocation = Fx.evaluate(catalog, [
            Fx.tx("t1", "basic", "2012-02-20", "2012-05-20", revoked: "2012-04-05", upgraded: true),
        ], now: "2012-09-15")
        #expect(cutByRevocation.periods(of: "mag") == [period("2012-02-20", "2012-04-05")])
    }

    @Test func e8GraceEntitlesAfterExpiryAndStaysWhenRetryFails() {
        let txs = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20"),
                   Fx.tx("t2", "monthly.sub", "2012-03-20", "2012-03-28")]
        let inGrace = Fx.evaluate(Fx.magazine, txs, [Fx.renewal(billingRetry: true, grace: "2012-04-12")], now: "2012-04-05")
        #expect(inGrace.periods(of: "mag") == [period("2012-02-20", "2012-04-12")])
        #expect(inGrace.reasons("mag", "2012-04") == [.gracePeriod])
        #expect(inGrace.subscriptions.first?.state == .gracePeriod)
        #expect(inGrace.subscriptions.first?.gracePeriodExpiresAt == Fx.at("2012-04-12"))
        let failed = Fx.evaluate(Fx.magazine, txs, [
            TransactionMerge.merge(Fx.renewal(billingRetry: true, grace: "2012-04-12", observed: "2012-04-01"),
                                   Fx.renewal(autoRenew: false, intent: .billing, observed: "2012-06-01"))],
            now: "2012-09-15")
        #expect(failed.reasons("mag", "2012-04") == [.gracePeriod])
        #expect(failed.subscriptions.first?.state == .expiredBilling)
    }

    @Test func e8TheGatewaysOwnGraceAppliesOnlyWithoutTheAppStores() {
        let txs = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-28")]
        let policy = EntitlementPolicy(graceDays: 7)
        let own = Fx.evaluate(Fx.magazine, txs, [Fx.renewal(billingRetry: true)], policy: policy, now: "2012-04-02")
        #expect(own.periods(of: "mag") == [period("2012-02-20", "2012-04-04")])
        #expect(own.subscriptions.first?.state == .gracePeriod)
        let apple = Fx.evaluate(Fx.magazine, txs, [Fx.renewal(billingRetry: true, grace: "2012-03-30")], policy: policy, now: "2012-04-02")
        #expect(apple.periods(of: "mag") == [period("2012-02-20", "2012-03-30")])
        #expect(apple.subscriptions.first?.state == .billingRetry)
    }

    /// E8 clarified: the grace interval starts at the latest end of all transactions, a refunded
    /// renewal's included, so the refunded period never becomes grace; E13: the period that begins
    /// with that grace unlocks nothing.
    @Test func e8GraceStartsAfterARefundedRenewalNeverOverIt() {
        let txs = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20"),
                   Fx.tx("t2", "monthly.sub", "2012-03-20", "2012-04-20", revoked: "2012-03-25")]
        let r = Fx.evaluate(Fx.magazine, txs, [Fx.renewal(billingRetry: true, grace: "2012-05-05")], now: "2012-05-02")
        #expect(r.periods(of: "mag") == [period("2012-02-20", "2012-03-20"), period("2012-04-20", "2012-05-05")])
        #expect(r.reasons("mag", "2012-03") == [.activePeriod])
        #expect(r.reasons("mag", "2012-04") == [.refunded], "inside the refunded renewal, and not unlocked by grace")
        #expect(r.reasons("mag", "2012-05") == [.gracePeriod])
        let own = Fx.evaluate(Fx.magazine, txs, [Fx.renewal(billingRetry: true)], policy: EntitlementPolicy(graceDays: 20),
                              now: "2012-05-02")
        #expect(own.periods(of: "mag") == [period("2012-02-20", "2012-03-20"), period("2012-04-20", "2012-05-10")])
        #expect(own.reasons("mag", "2012-04") == [.refunded])
    }

    @Test func e8ASubscriptionWhollyRefundedHasNoGrace() {
        let txs = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20", revoked: "2012-02-21"),
                   Fx.tx("t2", "monthly.sub", "2012-03-20", "2012-04-20", revoked: "2012-03-21")]
        for policy in [EntitlementPolicy.default, EntitlementPolicy(graceDays: 30)] {
            let r = Fx.evaluate(Fx.magazine, txs, [Fx.renewal(billingRetry: true, grace: "2012-05-05")], policy: policy,
                                now: "2012-05-02")
            #expect(r.periods(of: "mag").isEmpty)
            #expect(r.reasons("mag", "2012-05") == [.noPurchase])
        }
    }

    /// E8: while the gateway's own grace runs (billing retry, or expired for billing), the state is
    /// `gracePeriod` (3) with its end as `gracePeriodExpiresAt`, as with the App Store's grace.
    @Test func e8TheGatewaysOwnGraceIsReportedAsGraceWhileItRuns() {
        let txs = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-28")]
        let policy = EntitlementPolicy(graceDays: 7)
        for renewal in [Fx.renewal(billingRetry: true), Fx.renewal(autoRenew: false, intent: .billing)] {
            let running = Fx.evaluate(Fx.magazine, txs, [renewal], policy: policy, now: "2012-04-02")
            #expect(running.subscriptions.first?.state == .gracePeriod)
            #expect(running.subscriptions.first?.entitlementCode == 3)
            #expect(running.subscriptions.first?.gracePeriodExpiresAt == Fx.at("2012-04-04"))
            #expect(running.reasons("mag", "2012-04") == [.gracePeriod])
            let over = Fx.evaluate(Fx.magazine, txs, [renewal], policy: policy, now: "2012-04-10")
            #expect(over.subscriptions.first?.state == (renewal.isInBillingRetry ? .billingRetry : .expiredBilling))
            #expect(over.reasons("mag", "2012-04") == [.gracePeriod], "issues published in grace stay entitled")
        }
        let voluntary = Fx.evaluate(Fx.magazine, txs, [Fx.renewal(autoRenew: false, intent: .voluntary)], policy: policy,
                                    now: "2012-04-02")
        #expect(voluntary.subscriptions.first?.state == .expiredVoluntary)
        #expect(voluntary.subscriptions.first?.gracePeriodExpiresAt == nil)
    }

    @Test func e9BillingRetryWithoutGraceEntitlesNothingAfterExpiry() {
        let r = Fx.evaluate(Fx.magazine, [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20")],
                            [Fx.renewal(billingRetry: true)], now: "2012-04-05")
        #expect(r.periods(of: "mag") == [period("2012-02-20", "2012-03-20")])
        #expect(r.reasons("mag", "2012-04") == [.notSubscribedWhenPublished])
        #expect(r.subscriptions.first?.state == .billingRetry && r.subscriptions.first?.entitlementCode == -1)
    }

    @Test func e10NonRenewingUsesCalendarArithmeticAndStacks() {
        let catalog = Catalog(
            publications: [Publication(id: "mag", title: "M")],
            products: [Product(id: "3m", kind: .nonRenewing, grants: ["mag"], duration: ISODuration("P3M")),
                       Product(id: "1m", kind: .nonRenewing, grants: ["mag"], duration: ISODuration("P1M"))],
            issues: Fx.monthlyIssues("mag", year: 2012, months: 1...12))
        let r = Fx.evaluate(catalog, [
            Fx.tx("a", "3m", "2012-01-31T10:00:00Z", original: "a"),
            Fx.tx("b", "1m", "2012-03-15", original: "b"),
        ], now: "2012-12-15")
        // Jan 31 + P3M = Apr 30 (clamped); the second starts then: + P1M = May 30.
        #expect(r.periods(of: "mag") == [period("2012-01-31T10:00:00Z", "2012-05-30T10:00:00Z")])
        #expect(r.entitledIds("mag") == ["2012-01", "2012-02", "2012-03", "2012-04", "2012-05"])
        #expect(r.purchases.map(\.state) == [.active, .active])
    }

    @Test func e11FreeSubscriptionsNeverEndUnlessRevoked() {
        let catalog = Catalog(publications: [Publication(id: "mag", title: "M")],
                              products: [Product(id: "free", kind: .free, grants: ["mag"])],
                              issues: Fx.monthlyIssues("mag", year: 2012, months: 1...12))
        let r = Fx.evaluate(catalog, [Fx.tx("f", "free", "2012-06-10")], now: "2012-12-15")
        #expect(r.periods(of: "mag") == [ActivePeriod(start: Fx.at("2012-06-10"), end: .distantFuture)])
        #expect(r.entitledIds("mag").first == "2012-06" && r.entitledIds("mag").count == 7)
        let revoked = Fx.evaluate(catalog, [Fx.tx("f", "free", "2012-06-10", revoked: "2012-07-01")], now: "2012-12-15")
        #expect(revoked.entitledIds("mag").isEmpty && revoked.purchases.first?.state == .revoked)
    }
}

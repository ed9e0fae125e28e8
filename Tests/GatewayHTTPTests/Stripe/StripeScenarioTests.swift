import Foundation
import StripeKit
import StripeSimulator
import Testing
import TestSupport
import Wire
import GatewayTesting

/// The simulator's scenario steps through the webhook, in both API shapes, checked against the
/// rules: E26 periods from paid lines (trial lines included), E9 billing retry, E19 states, E24/E6
/// full refunds and lost disputes void while partial refunds and open disputes change nothing, a
/// won dispute restores, E14 single issues, E4 owners named by Stripe, E1 any order.
@Suite struct StripeScenarioTests {
    static let shapes = StripeShape.allCases

    func subscribed(_ shape: StripeShape, trialDays: Int? = nil) throws -> (StripeFlow, (id: String, token: String), String) {
        let flow = try StripeFlow(shape: shape)
        let (reader, subscription) = try flow.subscribedReader(trialDays: trialDays)
        return (flow, reader, subscription)
    }

    @Test(arguments: shapes) func e26CheckoutEntitlesThePaidLinePeriod(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        // [Jan 10, Feb 10): January unlocked at the start (E13), February published inside (E12).
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        let stored = try flow.storedTransactions(reader)
        #expect(stored.count == 1 && stored.first?.store == .stripe && stored.first?.originalTransactionId == subscription)
        #expect(try flow.state(reader) == ("active", 1))
    }

    @Test(arguments: shapes) func e26ATrialLineEntitlesItsPeriodThenRenews(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape, trialDays: 14)
        #expect(try flow.entitledIssues(reader) == ["2026-01"])
        #expect(try flow.state(reader) == ("active", 1.1))
        flow.stripe.renew(subscription)  // [Jan 24, Feb 24)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(try flow.state(reader).code == 1)
    }

    @Test(arguments: shapes) func renewalsEachEntitleTheirOwnLine(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        flow.stripe.renew(subscription)
        flow.stripe.renew(subscription)  // up to Apr 10
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03", "2026-04"])
        #expect(try flow.storedTransactions(reader).count == 3)
    }

    @Test(arguments: shapes) func e9PaymentFailureIsBillingRetryThenRecovery(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        flow.stripe.failRenewal(subscription)  // Feb 10: the invoice stays open, past_due
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(try flow.state(reader, at: flow.stripe.now.adding(seconds: 86_400)) == ("billingRetry", -1))
        flow.stripe.recover(subscription, afterSeconds: 3 * 86_400)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        #expect(try flow.state(reader).state == "active")
    }

    /// E26/E8: `past_due` with the gateway's own grace configured is served for those days.
    @Test func e8TheGatewaysGraceAppliesToPastDue() throws {
        let flow = try StripeFlow { $0.graceDays = 7 }
        let (reader, subscription) = try flow.subscribedReader()
        flow.stripe.failRenewal(subscription)  // Feb 10
        try flow.deliver()
        #expect(try flow.state(reader, at: Instant(rfc3339: "2026-02-12T00:00:00Z")!) == ("gracePeriod", 3))
        #expect(try flow.state(reader, at: Instant(rfc3339: "2026-02-18T00:00:00Z")!) == ("billingRetry", -1))
    }

    @Test(arguments: shapes) func retriesExhaustedEndForBilling(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        flow.stripe.failRenewal(subscription)
        flow.stripe.endAfterFailedPayments(subscription, afterSeconds: 7 * 86_400)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(try flow.state(reader) == ("expiredBilling", -3))
    }

    @Test(arguments: shapes) func cancelAtPeriodEndIsAutoRenewOffThenExpiredVoluntary(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        flow.stripe.advance(seconds: 86_400)
        flow.stripe.cancelAtPeriodEnd(subscription)
        try flow.deliver()
        #expect(try flow.state(reader) == ("activeAutoRenewOff", 2))
        flow.stripe.reachPeriodEnd(subscription)
        try flow.deliver()
        #expect(try flow.state(reader) == ("expiredVoluntary", -2))
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }

    @Test(arguments: shapes) func e24AFullRefundVoidsAPartialOneChangesNothing(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        flow.stripe.renew(subscription)  // [Feb 10, Mar 10): March
        try flow.deliver()
        flow.stripe.refund(subscription, full: false)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        flow.stripe.refund(subscription, full: true)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(try flow.state(reader) == ("revoked", -7))
    }

    @Test(arguments: shapes) func e24DisputesOpenChangesNothingLostVoidsWonRestores(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        flow.stripe.renew(subscription)
        let dispute = try #require(flow.stripe.openDispute(subscription))
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        flow.stripe.advance(seconds: 3600)
        flow.stripe.closeDispute(dispute, won: false)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        // A dispute that closes lost and is then won on appeal: the later word restores.
        flow.stripe.advance(seconds: 3600)
        flow.stripe.closeDispute(dispute, won: true)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
    }

    @Test(arguments: shapes) func e24AWonDisputeRestoresWhatWasVoidedNotWhatACancellationCut(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        flow.stripe.renew(subscription)  // [Feb 10, Mar 10)
        let dispute = try #require(flow.stripe.openDispute(subscription))
        flow.stripe.advance(seconds: 5 * 86_400)
        flow.stripe.cancelNow(subscription)  // Feb 15: the line is cut, March is lost
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        flow.stripe.advance(seconds: 3600)
        flow.stripe.closeDispute(dispute, won: false)
        try flow.deliver()
        flow.stripe.advance(seconds: 3600)
        flow.stripe.closeDispute(dispute, won: true)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        let line = try #require(try flow.storedTransactions(reader).max { $0.purchaseDate < $1.purchaseDate })
        #expect(line.revocationKind == .canceledByReader, "restored as it was before the void: cut, not whole")
    }

    @Test(arguments: shapes) func e24ADisputeLostAndWonInOneSecondEndsWon(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        flow.stripe.renew(subscription)
        let dispute = try #require(flow.stripe.openDispute(subscription))
        flow.stripe.advance(seconds: 3600)
        flow.stripe.closeDispute(dispute, won: false)
        flow.stripe.closeDispute(dispute, won: true)  // an appeal won: the later word, in the same second
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
    }

    @Test(arguments: shapes) func aPlanChangeWithProrationEntitlesTheNewPriceForTheRest(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try subscribed(shape)
        flow.stripe.advance(seconds: 10 * 86_400)  // Jan 20
        flow.stripe.changePlan(subscription, to: "price_premium", product: "prod_premium", amount: 1990)
        flow.stripe.renew(subscription)
        try flow.deliver()
        let products = try flow.storedTransactions(reader).sorted { $0.purchaseDate < $1.purchaseDate }.map(\.productId)
        // The credit line for the unused time pays for nothing: only the charged lines are transactions.
        #expect(products == ["price_monthly", "price_premium", "price_premium"])
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        let latest = try #require(try flow.subscriptions(reader).first)
        #expect(latest["productId"] as? String == "price_premium")
    }

    @Test(arguments: shapes) func e14ASingleIssueBoughtOnTheWeb(_ shape: StripeShape) throws {
        let flow = try StripeFlow(shape: shape)
        let reader = try flow.reader()
        flow.stripe.advance(seconds: 30 * 86_400)
        flow.stripe.buyIssue(account: reader.id, price: "price_issue_jan", product: "prod_jan", amount: 490)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01"])
    }

    @Test(arguments: [StripeSimulator.AccountNaming.subscriptionMetadata, .customerMetadata])
    func e4TheAccountNamedInMetadataOwnsIt(_ naming: StripeSimulator.AccountNaming) throws {
        let flow = try StripeFlow()
        let reader = try flow.reader()
        flow.stripe.checkout(account: reader.id, naming: naming, price: "price_monthly", product: "prod_mag", amount: 990)
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }

    @Test func e4ASecondAccountNamedByStripeTakesTheSubscription() throws {
        let (flow, first, subscription) = try subscribed(.basil)
        let second = try flow.reader()
        let session = #"{"id":"evt_again","object":"event","type":"checkout.session.completed","created":1768040000,"livemode":true,"data":{"object":{"id":"cs_again","object":"checkout.session","client_reference_id":"\#(second.id)","subscription":"\#(subscription)","livemode":true}}}"#
        #expect(try flow.post(Array(session.utf8)).status == 200)
        #expect(try flow.entitledIssues(second) == ["2026-01", "2026-02"])
        #expect(try flow.entitledIssues(first).isEmpty)
    }

    @Test func e3TestModeIsTheSandbox() throws {
        let flow = try StripeFlow(livemode: false)
        let reader = try flow.reader()
        flow.stripe.checkout(account: reader.id, price: "price_monthly", product: "prod_mag", amount: 990)
        try flow.deliver()
        #expect(try flow.storedTransactions(reader).map(\.environment) == [.sandbox])
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }

    /// E1: the same events, shuffled (seeded) and some sent twice, give the same entitlements and state.
    @Test(arguments: shapes) func e1AnyOrderGivesTheSameResult(_ shape: StripeShape) throws {
        for seed in UInt64(1)...4 {
            let (flow, reader, subscription) = try subscribed(shape)
            flow.stripe.renew(subscription)
            flow.stripe.failRenewal(subscription)
            flow.stripe.recover(subscription, afterSeconds: 2 * 86_400)
            flow.stripe.refund(subscription, full: false)
            flow.stripe.advance(seconds: 86_400)
            flow.stripe.cancelAtPeriodEnd(subscription)
            var generator = SplitMix64(seed: seed)
            try flow.deliver { events in (events + events.prefix(2)).shuffled(using: &generator) }
            #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03", "2026-04"], "seed \(seed)")
            #expect(try flow.state(reader) == ("activeAutoRenewOff", 2), "seed \(seed)")
        }
    }
}

/// E24 cuts and E27 pauses, mapped onto the store-neutral model (decision 46).
@Suite struct StripeCutAndPauseTests {
    @Test(arguments: StripeShape.allCases) func e24CancelNowCutsTheLineAtEndedAt(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try StripeScenarioTests().subscribed(shape)
        flow.stripe.renew(subscription)                    // [Feb 10, Mar 10)
        flow.stripe.advance(seconds: 10 * 86_400)          // Feb 20
        flow.stripe.cancelNow(subscription)
        try flow.deliver()
        // March 1 came after the cut: not entitled, and nothing was refunded.
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        #expect(try flow.state(reader) == ("expiredVoluntary", -2))
        let cut = try #require(try flow.storedTransactions(reader).first { $0.revocationDate != nil })
        #expect(cut.revocationKind == .canceledByReader && cut.revocationDate == flow.stripe.now)
        flow.harness.clock.set(StripeFlow.later)
        let explained = try flow.harness.client.get("/v1/accounts/\(reader.id)/publications/webmag/issues/2026-03/explanation",
                                                    as: GatewayHarness.adminKey)
        #expect(explained.text.contains("notSubscribedWhenPublished"))
    }

    @Test func e24AMerchantCancellationIsExpiredOther() throws {
        let (flow, reader, subscription) = try StripeScenarioTests().subscribed(.basil)
        flow.stripe.advance(seconds: 5 * 86_400)
        flow.stripe.cancelNow(subscription, reason: "payment_disputed")
        try flow.deliver()
        #expect(try flow.entitledIssues(reader) == ["2026-01"])
        #expect(try flow.state(reader) == ("expiredOther", -6))
    }

    /// A refund of the line the cancellation cut voids it, whichever event arrives first (E1).
    @Test(arguments: [false, true]) func e24AVoidWinsOverACutInAnyOrder(_ reversed: Bool) throws {
        let (flow, reader, subscription) = try StripeScenarioTests().subscribed(.basil)
        flow.stripe.renew(subscription)
        flow.stripe.advance(seconds: 86_400)
        flow.stripe.refund(subscription, full: true)
        flow.stripe.advance(seconds: 60)
        flow.stripe.cancelNow(subscription)
        try flow.deliver { reversed ? $0.reversed() : $0 }
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
        let latest = try #require(try flow.storedTransactions(reader).max { $0.purchaseDate < $1.purchaseDate })
        #expect(latest.revocationKind == .void)
    }

    @Test func e24APartialRefundIsRecorded() throws {
        let (flow, reader, subscription) = try StripeScenarioTests().subscribed(.basil)
        flow.stripe.refund(subscription, full: false)
        try flow.deliver()
        let line = try #require(try flow.storedTransactions(reader).first)
        #expect(line.revocationDate == nil && line.revocationPercentage == 50_000)
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02"])
    }

    @Test(arguments: StripeShape.allCases) func e27PausedEntitlesNothingUntilResumeWhichUnlocks(_ shape: StripeShape) throws {
        let (flow, reader, subscription) = try StripeScenarioTests().subscribed(shape)
        flow.stripe.advance(to: Instant(rfc3339: "2026-02-10T09:00:00Z")!)  // the paid line's end
        flow.stripe.pause(subscription)
        try flow.deliver()
        #expect(try flow.state(reader, at: Instant(rfc3339: "2026-03-15T00:00:00Z")!) == ("paused", -8))
        flow.stripe.advance(to: Instant(rfc3339: "2026-04-15T00:00:00Z")!)
        flow.stripe.resume(subscription)                   // [Apr 15, May 15)
        try flow.deliver()
        // March was published while paused; April is unlocked at the resume (E13), May inside.
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-04", "2026-05"])
        #expect(try flow.state(reader).state == "active")
    }
}

import Foundation
import Testing
import Entitle
import IssueCatalog

/// E1–E4: identity, provenance, sandbox, binding facts.
@Suite struct RuleIngestionTests {
    let base = Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20", observed: "2012-02-20")

    @Test func e1SameTransactionTwiceIsOneAndNewerRevocationWins() {
        var refunded = base
        refunded.revocationDate = Fx.at("2012-03-01")
        refunded.observedAt = Fx.at("2012-03-01")
        var reversed = base
        reversed.observedAt = Fx.at("2012-03-05")
        #expect(TransactionMerge.merge(base, base) == base)
        #expect(TransactionMerge.merge(base, refunded).revocationDate == Fx.at("2012-03-01"))
        #expect(TransactionMerge.merge(refunded, base).revocationDate == Fx.at("2012-03-01"))
        #expect(TransactionMerge.merge(refunded, reversed).revocationDate == nil)
        #expect(TransactionMerge.merge(reversed, refunded).revocationDate == nil)
        var sameInstant = refunded
        sameInstant.observedAt = base.observedAt
        #expect(TransactionMerge.merge(base, sameInstant).revocationDate != nil)  // ties keep the refund
        let twice = Fx.evaluate(Fx.magazine, [base, base, refunded, reversed], now: "2012-09-15")
        #expect(twice.entitledIds("mag") == ["2012-02", "2012-03"])
        #expect(twice.subscriptions.first?.renewals == 0)
    }

    @Test func e1MergeFillsFactsOneSourceLeftOut() {
        var fromReceipt = base
        fromReceipt.webOrderLineItemId = "42"
        var fromJWS = base
        fromJWS.observedAt = Fx.at("2012-02-21")
        fromJWS.appAccountToken = "acct"
        fromJWS.expiresDate = Fx.at("2012-03-27")  // a renewal date extension
        let merged = TransactionMerge.merge(fromReceipt, fromJWS)
        #expect(merged.webOrderLineItemId == "42" && merged.appAccountToken == "acct")
        #expect(merged.expiresDate == Fx.at("2012-03-27"))
        #expect(merged == TransactionMerge.merge(fromJWS, fromReceipt))
    }

    @Test func e1RenewalInfoNewerWinsButGraceIsKept() {
        let retry = Fx.renewal(billingRetry: true, grace: "2012-03-30", observed: "2012-03-21")
        let failed = Fx.renewal(autoRenew: false, intent: .billing, observed: "2012-05-20")
        let merged = TransactionMerge.merge(retry, failed)
        #expect(merged.expirationIntent == .billing && !merged.isInBillingRetry)
        #expect(merged.gracePeriodExpiresDate == Fx.at("2012-03-30"))
        #expect(merged == TransactionMerge.merge(failed, retry))
    }

    @Test func e3SandboxIsKeptApartAndCountsOnlyWhenAccepted() {
        let sandbox = Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20", env: .sandbox)
        let production = Fx.tx("t1", "monthly.sub", "2012-06-17", "2012-07-17")
        let accepted = Fx.evaluate(Fx.magazine, [sandbox, production], now: "2012-09-15")
        #expect(accepted.entitledIds("mag") == ["2012-02", "2012-03", "2012-06", "2012-07"])
        #expect(accepted.subscriptions.map(\.environment) == [.production, .sandbox])
        let refused = Fx.evaluate(Fx.magazine, [sandbox, production],
                                  policy: EntitlementPolicy(acceptSandbox: false), now: "2012-09-15")
        #expect(refused.entitledIds("mag") == ["2012-06", "2012-07"])
        #expect(refused.subscriptions.map(\.environment) == [.production])
    }

    @Test func e4TheAccountTokenSurvivesMergingForBinding() {
        var withToken = base
        withToken.appAccountToken = "5f1b…"
        withToken.observedAt = nil
        #expect(TransactionMerge.merge(base, withToken).appAccountToken == "5f1b…")
    }
}

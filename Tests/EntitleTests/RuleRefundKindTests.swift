import Testing
import Entitle
import IssueCatalog

/// E24: refunds by kind. A void (E6) entitles nothing; a cut keeps what came out before it; a
/// reversal restores; a partial refund that is not a revocation changes nothing.
@Suite struct RuleRefundKindTests {
    let catalog = Fx.magazine

    /// Bought on 20 February, renewed on 20 March for two months, revoked on 10 April.
    func facts(_ kind: RevocationKind?, percentage: Int? = nil) -> [Transaction] {
        [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20"),
         Fx.tx("t2", "monthly.sub", "2012-03-20", "2012-05-20", revoked: "2012-04-10", kind: kind, percentage: percentage)]
    }

    func evaluate(_ transactions: [Transaction], _ renewal: RenewalInfo = Fx.renewal(), now: String = "2012-06-15") -> AccountEntitlements {
        Fx.evaluate(catalog, transactions, [renewal], now: now)
    }

    @Test(arguments: [RevocationKind?.none, .void])
    func e6AFullRefundVoidsTheTransaction(kind: RevocationKind?) throws {
        let e = evaluate(facts(kind))
        #expect(e.entitledIds("mag") == ["2012-02", "2012-03"])
        #expect(e.reasons("mag", "2012-04") == [.refunded] && e.reasons("mag", "2012-05") == [.refunded])
        let s = try #require(e.subscriptions.first)
        #expect(s.state == .revoked && s.entitlementCode == -7)
    }

    @Test(arguments: [(RevocationKind.proratedRefund, SubscriptionState.expiredVoluntary, -2.0),
                      (.revokedWithRefund, .expiredOther, -6.0)])
    func e24ACutThatReturnedMoneyKeepsWhatCameOutBefore(kind: RevocationKind, state: SubscriptionState, code: Double) throws {
        let e = evaluate(facts(kind))
        #expect(e.entitledIds("mag") == ["2012-02", "2012-03", "2012-04"])
        #expect(e.reasons("mag", "2012-04") == [.activePeriod])
        #expect(e.reasons("mag", "2012-05") == [.refunded])  // the uncut interval would have entitled it
        #expect(e.reasons("mag", "2012-06") == [.notSubscribedWhenPublished])
        #expect(e.periods(of: "mag") == [ActivePeriod(start: Fx.at("2012-02-20"), end: Fx.at("2012-04-10"))])
        let s = try #require(e.subscriptions.first)
        #expect(s.state == state && s.entitlementCode == code && !s.willRenew && s.expiresAt == Fx.at("2012-04-10"))
    }

    @Test(arguments: [(RevocationKind.familyRevoke, SubscriptionState.expiredOther, -6.0),
                      (.canceledByReader, .expiredVoluntary, -2.0), (.canceledOther, .expiredOther, -6.0)])
    func e24ACutWithoutMoneyIsNotSubscribedAfterIt(kind: RevocationKind, state: SubscriptionState, code: Double) throws {
        let e = evaluate(facts(kind))
        #expect(e.entitledIds("mag") == ["2012-02", "2012-03", "2012-04"])
        #expect(e.reasons("mag", "2012-05") == [.notSubscribedWhenPublished])
        let s = try #require(e.subscriptions.first)
        #expect(s.state == state && s.entitlementCode == code)
    }

    @Test func e24BeforeTheCutComesTheSubscriptionIsStillServedWithoutRenewing() throws {
        let s = try #require(evaluate(facts(.canceledByReader), now: "2012-04-05").subscriptions.first)
        #expect(s.state == .activeAutoRenewOff && !s.willRenew && s.expiresAt == Fx.at("2012-04-10"))
    }

    @Test func e24AReversalRestoresWhatWasCutOrVoided() throws {
        for kind in [RevocationKind.void, .proratedRefund, .familyRevoke] {
            var revoked = facts(kind)
            revoked[1].observedAt = Fx.at("2012-04-10")
            var reversed = revoked[1]
            reversed.revocationDate = nil; reversed.revocationKind = nil; reversed.observedAt = Fx.at("2012-04-20")
            // E1: in either order, the newer description (not revoked) wins.
            for transactions in [revoked + [reversed], [reversed] + revoked] {
                let e = evaluate(transactions, now: "2012-05-10")
                #expect(e.entitledIds("mag") == ["2012-02", "2012-03", "2012-04", "2012-05"])
                #expect(e.subscriptions.first?.state == .active)
            }
        }
    }

    @Test func e24APartialRefundThatIsNotARevocationChangesNothing() {
        var partial = facts(nil)
        partial[1].revocationDate = nil
        partial[1].revocationPercentage = 25_000
        var plain = partial
        plain[1].revocationPercentage = nil
        #expect(partial[1].isPartialRefund && !partial[1].isVoid && !partial[1].isCut)
        let now = "2012-05-10"
        #expect(evaluate(partial, now: now).entitledIds("mag") == evaluate(plain, now: now).entitledIds("mag"))
        #expect(evaluate(partial, now: now).subscriptions == evaluate(plain, now: now).subscriptions)
    }

    @Test func e24TheExplanationShowsTheKindAndThePercentage() throws {
        let transactions = facts(.proratedRefund, percentage: 58_000)
        let e = evaluate(transactions)
        let may = try #require(IssueExplainer.explain(IssueRef(publicationId: "mag", issueId: "2012-05"), entitlements: e,
                                                      facts: AccountFacts(transactions: transactions),
                                                      catalog: CatalogSnapshot(catalog)))
        let refunded = try #require(may.refunded)
        #expect(refunded.transactionId == "t2" && refunded.revocationKind == .proratedRefund
                && refunded.revocationPercentage == 58_000)
        #expect(may.summary.contains("prorated, 58 %") && may.summary.contains("10 April 2012"))
        let april = try #require(IssueExplainer.explain(IssueRef(publicationId: "mag", issueId: "2012-04"), entitlements: e,
                                                        facts: AccountFacts(transactions: transactions),
                                                        catalog: CatalogSnapshot(catalog)))
        #expect(april.entitled && april.transaction?.transactionId == "t2")
    }

    @Test func e24PercentagesReadAsPercent() {
        #expect(SupportSentence.percentText(58_000) == "58 %")
        #expect(SupportSentence.percentText(58_500) == "58.5 %")
        #expect(SupportSentence.percentText(1_005) == "1.005 %")
    }

    @Test func e8ACutTransactionEndsAtItsCut() throws {
        let policy = EntitlementPolicy(graceDays: 10)
        let e = Fx.evaluate(catalog, facts(.familyRevoke), [Fx.renewal(intent: .billing)], policy: policy, now: "2012-06-15")
        #expect(e.periods(of: "mag") == [ActivePeriod(start: Fx.at("2012-02-20"), end: Fx.at("2012-04-20"))])
    }
}

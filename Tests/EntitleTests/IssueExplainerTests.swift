import Testing
import Entitle
import IssueCatalog

/// E20 for support staff: the evidence behind the engine's reasons and the sentence for the reader.
@Suite struct IssueExplainerTests {
    static let guideTransactions = [
        Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20"),
        Fx.tx("t2", "monthly.sub", "2012-03-20", "2012-04-20"),
        Fx.tx("t3", "monthly.sub", "2012-06-17", "2012-07-17"),
    ]

    func explain(_ issueId: String, _ transactions: [Transaction] = guideTransactions,
                 catalog: Catalog = Fx.magazine, now: String = "2012-09-15") throws -> IssueExplanation {
        let entitlements = Fx.evaluate(catalog, transactions, [Fx.renewal(autoRenew: false, intent: .voluntary)], now: now)
        return try #require(IssueExplainer.explain(IssueRef(publicationId: "mag", issueId: issueId), entitlements: entitlements,
                                                   transactions: transactions, catalog: CatalogSnapshot(catalog)))
    }

    @Test func whyNotMayInTheGuidesExample() throws {
        let may = try explain("2012-05")
        #expect(!may.entitled && may.reasons == [.notSubscribedWhenPublished])
        #expect(may.periodBefore == ActivePeriod(start: Fx.at("2012-02-20"), end: Fx.at("2012-04-20")))
        #expect(may.periodAfter == ActivePeriod(start: Fx.at("2012-06-17"), end: Fx.at("2012-07-17")))
        #expect(may.periodContaining == nil)
        #expect(may.summary == "Your subscription ended on 20 April 2012 and restarted on 17 June 2012; the 2012-05 issue came out on 1 May 2012, between them.")
    }

    @Test func theEntitledOnesNameTheirTransaction() throws {
        let march = try explain("2012-03")
        #expect(march.reasons == [.activePeriod] && march.transaction?.transactionId == "t1")
        #expect(march.summary.hasPrefix("Your subscription was active when the 2012-03 issue came out on 1 March 2012"))
        let june = try explain("2012-06")
        #expect(june.reasons == [.unlockedAtStart] && june.transaction?.transactionId == "t3")
        #expect(june.summary == "Your subscription started on 17 June 2012; the 2012-06 issue, the latest one out that day (1 June 2012), comes with it.")
        let august = try explain("2012-08")
        #expect(august.reasons == [.notSubscribedWhenPublished] && august.periodAfter == nil)
        #expect(august.summary.hasPrefix("Your subscription ended on 17 July 2012;"))
    }

    @Test func aRefundNamesTheRefundedTransaction() throws {
        let refunded = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-04-20", revoked: "2012-03-01")]
        let march = try explain("2012-03", refunded)
        #expect(march.reasons == [.refunded])
        #expect(march.refunded?.transactionId == "t1" && march.refunded?.revocationDate == Fx.at("2012-03-01"))
        #expect(march.summary.contains("was refunded on 1 March 2012"))
        let january = try explain("2012-01", [])
        #expect(january.reasons == [.noPurchase] && january.summary.hasPrefix("This account has no subscription"))
    }

    @Test func unknownIssuesHaveNoExplanation() {
        let entitlements = Fx.evaluate(Fx.magazine, [], now: "2012-09-15")
        #expect(IssueExplainer.explain(IssueRef(publicationId: "mag", issueId: "nope"), entitlements: entitlements,
                                       transactions: [], catalog: CatalogSnapshot(Fx.magazine)) == nil)
    }
}

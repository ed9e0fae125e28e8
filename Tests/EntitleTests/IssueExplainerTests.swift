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
                                                   facts: AccountFacts(transactions: transactions), catalog: CatalogSnapshot(catalog)))
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
                                       facts: AccountFacts(), catalog: CatalogSnapshot(Fx.magazine)) == nil)
    }
}

/// E20 with grants (E21): the grant is the evidence where no transaction entitles the issue.
@Suite struct IssueExplainerGrantTests {
    func explain(_ issueId: String, grant: Grant) throws -> IssueExplanation {
        let entitlements = EntitlementEngine.evaluate(catalog: CatalogSnapshot(Fx.magazine),
                                                      facts: AccountFacts(transactions: IssueExplainerTests.guideTransactions,
                                                                          grants: [grant]),
                                                      policy: .default, now: Fx.at("2012-09-15"))
        return try #require(IssueExplainer.explain(IssueRef(publicationId: "mag", issueId: issueId), entitlements: entitlements,
                                                   facts: AccountFacts(transactions: IssueExplainerTests.guideTransactions,
                                                                       grants: [grant]),
                                                   catalog: CatalogSnapshot(Fx.magazine)))
    }

    static func grant(_ start: String, _ end: String) -> Grant {
        Grant(grantId: "g1", accountId: "a", source: "print", externalId: "p1", publications: ["mag"], start: Fx.at(start),
              end: Fx.at(end), createdAt: Fx.at(start))
    }

    @Test func aGrantThatBeganAStretchIsTheEvidenceNotTheNextPurchase() throws {
        let may = try explain("2012-05", grant: Self.grant("2012-05-10", "2012-05-20"))
        #expect(may.entitled && may.reasons == [.unlockedAtStart])
        #expect(may.transaction == nil && may.grant?.grantId == "g1")
        #expect(may.summary == "Your publisher gave you access from 10 May 2012; the 2012-05 issue, the latest one out that day (1 May 2012), comes with it.")
        // The June issue is still the resubscription's.
        let june = try explain("2012-06", grant: Self.grant("2012-05-10", "2012-05-20"))
        #expect(june.transaction?.transactionId == "t3" && june.grant == nil)
    }

    @Test func anIssueInsideAGrantNamesIt() throws {
        let may = try explain("2012-05", grant: Self.grant("2012-04-25", "2012-06-10"))
        #expect(may.reasons == [.granted] && may.grant?.grantId == "g1" && may.transaction == nil)
        #expect(may.summary == "Your publisher gave you access to the 2012-05 issue, which came out on 1 May 2012.")
    }
}

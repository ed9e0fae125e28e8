import Testing
import Entitle
import IssueCatalog
import Wire

/// E21: grants beyond the App Store.
@Suite struct RuleGrantTests {
    static func grant(_ start: String, _ end: String?, id: String = "g1", publications: [String] = ["mag"],
                      revoked: String? = nil) -> Grant {
        Grant(grantId: id, accountId: "a", source: "print", externalId: id, publications: publications,
              start: Fx.at(start), end: end.map(Fx.at), revokedAt: revoked.map(Fx.at), createdAt: Fx.at(start))
    }

    func evaluate(_ transactions: [Transaction] = [], grants: [Grant], now: String = "2012-12-15") -> AccountEntitlements {
        EntitlementEngine.evaluate(catalog: CatalogSnapshot(Fx.magazine),
                                   facts: AccountFacts(transactions: transactions, renewals: [], grants: grants),
                                   policy: .default, now: Fx.at(now))
    }

    @Test func e21AGrantEntitlesItsWindowAndTheIssueCurrentAtItsStart() {
        let r = evaluate(grants: [Self.grant("2012-03-10", "2012-06-10")])
        #expect(r.periods(of: "mag") == [ActivePeriod(start: Fx.at("2012-03-10"), end: Fx.at("2012-06-10"))])
        #expect(r.reasons("mag", "2012-02") == [.notSubscribedWhenPublished], "a grant counts as a subscription (E20)")
        #expect(r.reasons("mag", "2012-03") == [.unlockedAtStart])
        #expect(r.reasons("mag", "2012-04") == [.granted])
        #expect(r.reasons("mag", "2012-06") == [.granted])
        #expect(r.reasons("mag", "2012-07") == [.notSubscribedWhenPublished])
    }

    @Test func e21StoreReasonsComeFirstWhereBothApply() {
        let paid = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-04-20")]
        let r = evaluate(paid, grants: [Self.grant("2012-04-01", nil)])
        #expect(r.reasons("mag", "2012-03") == [.activePeriod])
        #expect(r.reasons("mag", "2012-04") == [.activePeriod])
        #expect(r.reasons("mag", "2012-05") == [.granted])
        #expect(r.reasons("mag", "2012-12") == [.granted], "open-ended")
        #expect(r.periods(of: "mag") == [ActivePeriod(start: Fx.at("2012-02-20"), end: .distantFuture)])
    }

    @Test func e21ARevokedGrantIsAsIfNeverGivenAndOtherPublicationsAreUntouched() {
        let revoked = evaluate(grants: [Self.grant("2012-03-10", "2012-06-10", revoked: "2012-04-01")])
        #expect(revoked.periods(of: "mag").isEmpty)
        #expect(revoked.reasons("mag", "2012-04") == [.noPurchase])
        let elsewhere = evaluate(grants: [Self.grant("2012-03-10", "2012-06-10", publications: ["other"])])
        #expect(elsewhere.reasons("mag", "2012-04") == [.noPurchase])
    }

    @Test func e21GrantsDoNotStack() {
        let r = evaluate(grants: [Self.grant("2012-03-10", "2012-04-10", id: "g1"), Self.grant("2012-03-20", "2012-04-05", id: "g2")])
        #expect(r.periods(of: "mag") == [ActivePeriod(start: Fx.at("2012-03-10"), end: Fx.at("2012-04-10"))])
    }
}

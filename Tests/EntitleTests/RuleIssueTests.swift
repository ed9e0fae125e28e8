import Testing
import Entitle
import IssueCatalog

/// E12–E18: which issues.
@Suite struct RuleIssueTests {
    let subscription = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-04-20")]

    func magazine(_ change: (inout Catalog) -> Void) -> Catalog {
        var c = Fx.magazine
        change(&c)
        return c
    }

    @Test func e12IssuesPublishedWhileActiveAreEntitledHalfOpen() {
        // [Mar 1, Apr 1): the April issue, published exactly at the end, is not inside.
        let r = Fx.evaluate(Fx.magazine, [Fx.tx("t1", "monthly.sub", "2012-03-01", "2012-04-01")], now: "2012-09-15")
        #expect(r.reasons("mag", "2012-03") == [.activePeriod, .unlockedAtStart])
        #expect(r.reasons("mag", "2012-04") == [.notSubscribedWhenPublished])
    }

    @Test func e13TheLatestIssueAtOrBeforeEachStartIsUnlocked() {
        let r = Fx.evaluate(Fx.magazine, subscription + [Fx.tx("t2", "monthly.sub", "2012-08-05", "2012-09-05")],
                            now: "2012-12-15")
        #expect(r.entitledIds("mag") == ["2012-02", "2012-03", "2012-04", "2012-08", "2012-09"])
        #expect(r.reasons("mag", "2012-08") == [.unlockedAtStart])
        #expect(r.reasons("mag", "2012-05") == [.notSubscribedWhenPublished])
    }

    @Test func e14SingleIssuePurchasesAreForGoodUnlessRevoked() {
        let catalog = magazine { $0.products.append(Product(id: "may", kind: .issue, grants: ["mag"],
                                                            issue: IssueRef(publicationId: "mag", issueId: "2012-05"))) }
        let bought = Fx.evaluate(catalog, [Fx.tx("p", "may", "2012-11-01", original: "p")], now: "2012-12-15")
        #expect(bought.entitledIds("mag") == ["2012-05"])
        #expect(bought.reasons("mag", "2012-05") == [.purchased])
        #expect(bought.purchases.first?.issue == IssueRef(publicationId: "mag", issueId: "2012-05"))
        let refunded = Fx.evaluate(catalog, [Fx.tx("p", "may", "2012-11-01", original: "p", revoked: "2012-11-03")],
                                   now: "2012-12-15")
        #expect(refunded.entitledIds("mag").isEmpty)
        #expect(refunded.reasons("mag", "2012-05") == [.refunded])
    }

    @Test func e15FreeIssuesAreForEveryone() {
        let catalog = magazine { $0.issues = Fx.monthlyIssues("mag", year: 2012, months: 1...12, free: ["2012-01"]) }
        let nobody = Fx.evaluate(catalog, [], now: "2012-12-15")
        #expect(nobody.entitledIds("mag") == ["2012-01"])
        #expect(nobody.reasons("mag", "2012-01") == [.free])
        #expect(nobody.reasons("mag", "2012-02") == [.noPurchase])
    }

    @Test func e16ScheduledAndRetractedIssuesAreNotListedAndComeBackWhenRepublished() {
        let retractedCatalog = magazine { $0.issues[2].retractedAt = Fx.at("2012-05-01") }  // March
        let r = Fx.evaluate(retractedCatalog, subscription, now: "2012-04-10")
        #expect(r.entitledIds("mag") == ["2012-02", "2012-04"])
        #expect(!r.issues(publicationId: "mag", entitledOnly: false).map(\.issue.id).contains("2012-03"))
        #expect(r.entitlement(for: IssueRef(publicationId: "mag", issueId: "2012-03")) == nil)
        #expect(r.entitlement(for: IssueRef(publicationId: "mag", issueId: "2012-05")) == nil)  // scheduled
        #expect(r.reasons("mag", "2012-03") == [.retracted])
        #expect(r.reasons("mag", "2012-05") == [.scheduled])
        let republished = Fx.evaluate(Fx.magazine, subscription, now: "2012-04-10")
        #expect(republished.entitlement(for: IssueRef(publicationId: "mag", issueId: "2012-03"))?.entitled == true)
    }

    @Test func e16ARetractedLatestIssueIsNotReplacedByAnOlderOneAtUnlock() {
        let catalog = magazine { $0.issues[1].retractedAt = Fx.at("2012-03-01") }  // February
        let r = Fx.evaluate(catalog, subscription, now: "2012-09-15")
        #expect(r.entitledIds("mag") == ["2012-03", "2012-04"])
        #expect(r.reasons("mag", "2012-01") == [.notSubscribedWhenPublished])
    }

    @Test func e17DiscontinuedProductsAreHonouredAndReportedAsNotRenewing() throws {
        let catalog = magazine { $0.products[0].discontinuedAt = Fx.at("2012-03-01") }
        let r = Fx.evaluate(catalog, subscription, [Fx.renewal()], now: "2012-03-10")
        #expect(r.entitledIds("mag") == ["2012-02", "2012-03"])
        let s = try #require(r.subscriptions.first)
        #expect(s.state == .activeAutoRenewOff && !s.willRenew && s.renewsInto == nil && s.entitlementCode == 2)
        let before = Fx.evaluate(catalog, subscription, [Fx.renewal()], now: "2012-02-25")
        #expect(before.subscriptions.first?.state == .active)
    }

    @Test func e17ChangingGrantsChangesEveryOwnersEntitlements() {
        var catalog = Fx.magazine
        catalog.publications.append(Publication(id: "successor", title: "S"))
        catalog.issues += Fx.monthlyIssues("successor", year: 2012, months: 1...12)
        catalog.products[0].grants = ["successor"]
        let r = Fx.evaluate(catalog, subscription, now: "2012-09-15")
        #expect(r.entitledIds("mag").isEmpty)
        #expect(r.entitledIds("successor") == ["2012-02", "2012-03", "2012-04"])
        #expect(r.subscriptions.first?.grants == ["successor"])
    }

    @Test func e18TheEntitledSetNeverShrinksWithTimeAlone() {
        var previous: Set<String> = []
        for month in 2...12 {
            let now = "2012-" + (month < 10 ? "0\(month)" : "\(month)") + "-15"
            let ids = Set(Fx.evaluate(Fx.magazine, subscription, [Fx.renewal(billingRetry: true, grace: "2012-05-05")],
                                      now: now).entitledIds("mag"))
            #expect(ids.isSuperset(of: previous))
            previous = ids
        }
        #expect(previous == ["2012-02", "2012-03", "2012-04", "2012-05"])  // May: in grace
    }
}

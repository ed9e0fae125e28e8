import Testing
import Entitle
import IssueCatalog

/// The worked example of entitlement-rules.md (the In-App Purchase Programming Guide's magazine).
@Suite struct GoldenMagazineTests {
    let result = Fx.evaluate(Fx.magazine, [
        Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20"),
        Fx.tx("t2", "monthly.sub", "2012-03-20", "2012-04-20"),
        Fx.tx("t3", "monthly.sub", "2012-06-17", "2012-07-17"),
    ], [Fx.renewal(autoRenew: false, intent: .voluntary)], now: "2012-09-15")

    @Test func periodsAreTheTwoStretchesOfService() {
        #expect(result.periods(of: "mag") == [
            ActivePeriod(start: Fx.at("2012-02-20"), end: Fx.at("2012-04-20")),
            ActivePeriod(start: Fx.at("2012-06-17"), end: Fx.at("2012-07-17")),
        ])
    }

    @Test func entitledIssuesAreFebruaryToAprilJuneAndJuly() {
        #expect(result.entitledIds("mag") == ["2012-02", "2012-03", "2012-04", "2012-06", "2012-07"])
    }

    @Test func everyIssueSaysWhy() {
        #expect(result.reasons("mag", "2012-01") == [.notSubscribedWhenPublished])
        #expect(result.reasons("mag", "2012-02") == [.unlockedAtStart])
        #expect(result.reasons("mag", "2012-03") == [.activePeriod])
        #expect(result.reasons("mag", "2012-04") == [.activePeriod])
        #expect(result.reasons("mag", "2012-05") == [.notSubscribedWhenPublished])
        #expect(result.reasons("mag", "2012-06") == [.unlockedAtStart])
        #expect(result.reasons("mag", "2012-07") == [.activePeriod])
        #expect(result.reasons("mag", "2012-08") == [.notSubscribedWhenPublished])
    }

    @Test func theFullListIsNewestFirstAndStopsAtNow() {
        let ids = result.issues(publicationId: "mag", entitledOnly: false).map(\.issue.id)
        #expect(ids == ["2012-09", "2012-08", "2012-07", "2012-06", "2012-05", "2012-04", "2012-03",
                        "2012-02", "2012-01"])
    }

    @Test func theSubscriptionHasExpiredVoluntarily() throws {
        let s = try #require(result.subscriptions.first)
        #expect(result.subscriptions.count == 1)
        #expect(s.state == .expiredVoluntary)
        #expect(s.entitlementCode == -2)
        #expect(s.expiresAt == Fx.at("2012-07-17"))
        #expect(s.willRenew == false && s.renewsInto == nil)
        #expect(s.renewals == 2)
        #expect(s.grants == ["mag"])
    }
}

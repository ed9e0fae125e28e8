import Testing
import Entitle
import IssueCatalog

/// E27: a paused subscription entitles nothing from the pause until it resumes (state -8); a
/// resume starts a new active period, which unlocks (E13).
@Suite struct RulePauseTests {
    let catalog = Fx.magazine
    /// The renewal before the pause runs to 20 April; the pause began on 5 April, before the 1 May issue.
    let beforePause = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20"),
                       Fx.tx("t2", "monthly.sub", "2012-03-20", "2012-05-20")]
    let resumed = Fx.tx("t3", "monthly.sub", "2012-06-15", "2012-07-15")

    @Test func e27PausedEntitlesNothingFromThePause() throws {
        let e = Fx.evaluate(catalog, beforePause, [Fx.renewal(pausedAt: "2012-04-05", resumesAt: "2012-06-15")], now: "2012-06-10")
        #expect(e.entitledIds("mag") == ["2012-02", "2012-03", "2012-04"])
        #expect(e.reasons("mag", "2012-05") == [.notSubscribedWhenPublished])
        let s = try #require(e.subscriptions.first)
        #expect(s.state == .paused && s.entitlementCode == -8 && !s.willRenew)
    }

    @Test func e27APauseStillToComeIsNotPausedYet() throws {
        let e = Fx.evaluate(catalog, beforePause, [Fx.renewal(pausedAt: "2012-05-10")], now: "2012-05-05")
        #expect(e.entitledIds("mag").last == "2012-05")
        #expect(e.subscriptions.first?.state == .active)
    }

    @Test func e27AResumeStartsANewPeriodThatUnlocks() throws {
        // The store's renewal info may still say paused: the transaction bought since ends it.
        for renewal in [Fx.renewal(), Fx.renewal(pausedAt: "2012-04-05")] {
            let e = Fx.evaluate(catalog, beforePause + [resumed], [renewal], now: "2012-07-10")
            #expect(e.reasons("mag", "2012-06") == [.unlockedAtStart])  // E13
            #expect(e.reasons("mag", "2012-07") == [.activePeriod])
            #expect(e.subscriptions.first?.state == .active)
        }
        let stillPaused = Fx.evaluate(catalog, beforePause + [resumed], [Fx.renewal(pausedAt: "2012-04-05")], now: "2012-07-10")
        #expect(!stillPaused.entitledIds("mag").contains("2012-05"))
    }
}

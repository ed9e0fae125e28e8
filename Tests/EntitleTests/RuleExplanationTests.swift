import Testing
import Entitle
import IssueCatalog

/// E20: every answer says why.
@Suite struct RuleExplanationTests {
    @Test func e20EveryVisibleIssueHasReasonsAndRefusalsHaveExactlyOne() {
        var catalog = Fx.magazine
        catalog.issues[0].free = true
        catalog.issues[6].retractedAt = Fx.at("2012-08-01")
        let r = Fx.evaluate(catalog, [
            Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-03-20"),
            Fx.tx("t2", "monthly.sub", "2012-03-20", "2012-04-20", revoked: "2012-03-22"),
        ], now: "2012-09-15")
        let list = r.issues(publicationId: nil, entitledOnly: false)
        #expect(list.count == 8)  // Jan–Sep less retracted July
        for item in list {
            #expect(!item.reasons.isEmpty)
            #expect(item.entitled == item.reasons.allSatisfy(\.entitles))
            if !item.entitled { #expect(item.reasons.count == 1) }
        }
        #expect(r.reasons("mag", "2012-01") == [.free])
        #expect(r.reasons("mag", "2012-04") == [.refunded])
        #expect(r.reasons("mag", "2012-05") == [.notSubscribedWhenPublished])
        #expect(r.reasons("mag", "2012-07") == [.retracted])
        #expect(r.reasons("mag", "2012-10") == [.scheduled])
        #expect(r.reasons("mag", "nope") == nil)
        let stranger = Fx.evaluate(catalog, [], now: "2012-09-15")
        #expect(stranger.reasons("mag", "2012-05") == [.noPurchase])
    }

    @Test func e20TheIssueARefundedSubscriptionWouldHaveUnlockedIsRefusedAsRefunded() {
        // Subscribed on 20 February, refunded: February (E13) and March (E12) are both `refunded`.
        let r = Fx.evaluate(Fx.magazine, [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-04-20", revoked: "2012-02-25")],
                            now: "2012-09-15")
        #expect(r.reasons("mag", "2012-02") == [.refunded])
        #expect(r.reasons("mag", "2012-03") == [.refunded])
        #expect(r.reasons("mag", "2012-01") == [.noPurchase])
        #expect(r.issues(publicationId: "mag", entitledOnly: false).first { $0.issue.id == "2012-02" }?.reasons == [.refunded])
    }
}

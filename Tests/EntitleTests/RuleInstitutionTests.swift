import Testing
import Entitle
import IssueCatalog
import Wire

/// E30 in the rules: an institution enters as a grant of origin `institution` over its interval;
/// its issues are added to the account's own, with the reason `institution` beside the others.
@Suite struct RuleInstitutionTests {
    static func institution(_ start: String, _ end: String?) -> Grant {
        var grant = RuleGrantTests.grant(start, end, id: "institution:i1")
        grant.origin = .institution
        return grant
    }

    func evaluate(_ transactions: [Transaction] = [], grants: [Grant], now: String = "2012-12-15") -> AccountEntitlements {
        EntitlementEngine.evaluate(catalog: CatalogSnapshot(Fx.magazine),
                                   facts: AccountFacts(transactions: transactions, renewals: [], grants: grants),
                                   policy: .default, now: Fx.at(now))
    }

    /// The list and the single-issue answers agree, issue by issue.
    func expectListAgrees(_ r: AccountEntitlements) {
        let listed = r.issues(publicationId: "mag", entitledOnly: false)
        #expect(!listed.isEmpty)
        #expect(listed.allSatisfy { r.entitlement(for: $0.issue.ref) == $0 })
    }

    @Test func e30AnInstitutionAloneEntitlesLikeAGrantWithItsOwnReason() {
        let r = evaluate(grants: [Self.institution("2012-03-10", "2012-06-10")])
        #expect(r.periods(of: "mag") == [ActivePeriod(start: Fx.at("2012-03-10"), end: Fx.at("2012-06-10"))])
        #expect(r.reasons("mag", "2012-03") == [.unlockedAtStart], "the issue current at its start (E13)")
        #expect(r.reasons("mag", "2012-04") == [.institution])
        #expect(r.reasons("mag", "2012-07") == [.notSubscribedWhenPublished])
        expectListAgrees(r)
    }

    @Test func e30TheInstitutionsReasonIsListedBesideTheAccountsOwn() {
        let paid = [Fx.tx("t1", "monthly.sub", "2012-02-20", "2012-04-20")]
        let r = evaluate(paid, grants: [Self.institution("2012-04-01", "2012-06-10"), RuleGrantTests.grant("2012-05-10", nil)])
        #expect(r.reasons("mag", "2012-03") == [.activePeriod])
        #expect(r.reasons("mag", "2012-04") == [.activePeriod, .institution])
        #expect(r.reasons("mag", "2012-05") == [.institution], "before the account's grant begins")
        #expect(r.reasons("mag", "2012-06") == [.granted, .institution])
        #expect(r.reasons("mag", "2012-07") == [.granted])
        expectListAgrees(r)
    }
}

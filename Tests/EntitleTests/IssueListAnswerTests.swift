import TestSupport
import Testing
import Entitle
import IssueCatalog
import Wire

/// The compact answer a server keeps per account must list exactly what the engine lists, and
/// stay small: checked over random accounts, for every publication and for all together.
@Suite struct IssueListAnswerTests {
    static let cases = 1_000

    @Test func theCompactAnswerListsWhatTheEngineLists() {
        var largest = 0
        RandomAccount.forEach(Self.cases, seed: 23) { _, a in
            let entitlements = a.evaluate()
            let answer = entitlements.issueListAnswer
            for publication in [nil, "p1", "p2", "unknown"] as [String?] {
                #expect(answer.issuesStableUntil(publicationId: publication)
                        == entitlements.issuesStableUntil(publicationId: publication))
                for entitledOnly in [false, true] {
                    #expect(answer.issues(publicationId: publication, entitledOnly: entitledOnly)
                            == entitlements.issues(publicationId: publication, entitledOnly: entitledOnly))
                }
            }
            largest = max(largest, answer.heapBytes)
        }
        #expect(largest < 2_048, "runs, not issues: \(largest) bytes")
    }

    /// E16, E12–E15, E20: a download's decision read from the kept answer is the engine's, for
    /// every issue of the catalog (scheduled and retracted ones too), an unknown issue and an
    /// unknown publication; and it is still the engine's at a later instant while the
    /// publication's `issuesStableUntil` has not come (E18).
    @Test func E16E20TheCompactAnswerDecidesEachIssueAsTheEngineDoesUntilItIsStale() {
        var later = 0
        RandomAccount.forEach(Self.cases, seed: 29) { rng, a in
            let grants = rng.chance(30) ? [RandomAccount.grant(&rng, id: "g")] : []
            let entitlements = a.evaluate(grants: grants)
            let answer = entitlements.issueListAnswer
            let refs = a.catalog.issues.map(\.ref)
                + [IssueRef(publicationId: "p1", issueId: "none"), IssueRef(publicationId: "unknown", issueId: "p1-0")]
            for ref in refs {
                #expect(answer.entitlement(for: ref) == entitlements.entitlement(for: ref), "\(ref)")
                let then = a.now.adding(milliseconds: Int64.random(in: 1...(60 * RandomAccount.day), using: &rng))
                guard then < answer.issuesStableUntil(publicationId: ref.publicationId) else { continue }
                later += 1
                #expect(answer.entitlement(for: ref) == a.evaluate(grants: grants, now: then).entitlement(for: ref),
                        "\(ref) at \(then)")
            }
        }
        #expect(later > 1_000, "the later instants were checked: \(later)")
    }

    @Test func yearsOfRenewalsAreAFewRuns() {
        let issues = (2016...2025).flatMap { Fx.monthlyIssues("mag", year: $0, months: 1...12, free: ["\($0)-06"]) }
        let catalog = Catalog(publications: [Publication(id: "mag", title: "The Magazine")],
                              products: [Fx.autoRenewable("monthly.sub", grants: ["mag"])], issues: issues)
        // Ten years of monthly renewals with one lapsed month and one refunded month.
        var transactions: [Transaction] = []
        for year in 2016...2025 {
            for month in 1...12 where !(year == 2019 && month == 5) {
                let start = "\(year)-" + (month < 10 ? "0\(month)" : "\(month)") + "-15"
                let end = month == 12 ? "\(year + 1)-01-15" : "\(year)-" + (month < 9 ? "0\(month + 1)" : "\(month + 1)") + "-15"
                transactions.append(Fx.tx("t\(year)-\(month)", "monthly.sub", start, end,
                                          revoked: year == 2021 && month == 3 ? "2021-03-20" : nil))
            }
        }
        let entitlements = Fx.evaluate(catalog, transactions, now: "2026-01-10")
        let answer = entitlements.issueListAnswer
        #expect(answer.issues(publicationId: nil, entitledOnly: false).count == 120)
        #expect(answer.issues(publicationId: nil, entitledOnly: false) == entitlements.issues(publicationId: nil, entitledOnly: false))
        #expect(answer.issues(publicationId: "mag", entitledOnly: true) == entitlements.issues(publicationId: "mag", entitledOnly: true))
        #expect(answer.heapBytes < 600, "\(answer.heapBytes) bytes for 120 issues")
    }
}

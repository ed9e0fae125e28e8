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

import Entitle
import GatewayStore
import GatewayTesting
import IssueCatalog
import TestSupport
import Testing
import Wire

/// reports.md E36 on each backend against a count made without the report's path: a few hundred
/// generated accounts (E37's reference subscriptions: trials, renewals with gaps, refunds, grace
/// after billing trouble, three stores) stored through ingest, a year of `monthly` issues, and for
/// each issue the accounts `EntitlementEngine`'s ordinary evaluation of each account's facts
/// entitles, compared with the route's counts and its CSV recipient list. Which basis and store
/// decides each account is checked against reports.md's definitions stated again from the facts
/// in `CirculationPropertyTests`.
@Suite struct CirculationReferenceTests {
    static let months = 1...12

    static func issueId(_ month: Int) -> String { "2025-" + (month < 10 ? "0" : "") + String(month) }

    /// A year of issues, each published on a different day and hour of its month.
    static func publishIssues(_ h: GatewayHarness) throws {
        for month in months {
            let day = 1 + (month * 7) % 27, hour = (month * 5) % 24
            let at = issueId(month) + "-" + (day < 10 ? "0" : "") + String(day) + "T" + (hour < 10 ? "0" : "") + String(hour)
                + ":30:00Z"
            let body = GatewayHarness.issueBody(id: issueId(month), publishedAt: at, paths: ["/content/monthly/\(issueId(month))/issue.pdf"])
            let response = try h.client.post("/v1/publications/monthly/issues", as: GatewayHarness.adminKey, json: body)
            guard response.status == 201 else { throw MetricsTestError.notStored("issue \(month): \(response.status) \(response.text)") }
        }
    }

    @Test(arguments: MetricsBackend.all)
    func e36CountsAgreeWithTheEnginesOwnEvaluationOfEachAccount(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        try Self.publishIssues(g.h)
        var rng = SplitMix64(seed: 36)
        var accounts: [(id: String, subscriptions: [SubscriberMetricsReferenceTests.Subscription])] = []
        for account in 0..<300 {
            let subscriptions = (0..<Int.random(in: 1...3, using: &rng)).map {
                SubscriberMetricsReferenceTests.subscription(&rng, account: account, index: $0)
            }
            let id = try g.account(subscriptions.flatMap(\.transactions), renewals: subscriptions.flatMap(\.renewals))
            accounts.append((id, subscriptions))
        }
        let core = g.h.runtime.core
        let catalog = core.catalog.state.snapshot, policy = core.entitlements.policy, now = g.h.clock.now()
        let evaluations = accounts.map { account in
            (account.id, EntitlementEngine.evaluate(
                catalog: catalog,
                facts: AccountFacts(transactions: account.subscriptions.flatMap(\.transactions),
                                    renewals: account.subscriptions.flatMap(\.renewals)),
                policy: policy, now: now))
        }
        var counted = 0
        for month in Self.months {
            let ref = IssueRef(publicationId: "monthly", issueId: Self.issueId(month))
            let expected = Set(evaluations.filter { $0.1.entitlement(for: ref)?.entitled == true }.map(\.0))
            counted += expected.count

            let response = try g.h.client.get("/v1/publications/monthly/issues/\(ref.issueId)/circulation", as: GatewayHarness.adminKey)
            #expect(response.status == 200)
            let entitled = try #require(response.json["entitled"] as? [String: Any])
            let byStore = entitled["byStore"] as? [String: Int] ?? [:]
            let total = entitled["total"] as? Int ?? -1, paid = entitled["paid"] as? Int ?? -1, trial = entitled["trial"] as? Int ?? -1
            #expect(total == expected.count, "\(ref.issueId): the route counts \(total), the engine entitles \(expected.count)")
            #expect(paid + trial == total, "\(ref.issueId): only store transactions entitle here")
            #expect(entitled["print"] as? Int == 0 && entitled["grant"] as? Int == 0)
            #expect(byStore.values.reduce(0, +) == paid + trial, "\(ref.issueId): byStore counts the paid and trial accounts")

            let csv = try g.h.client.get("/v1/publications/monthly/issues/\(ref.issueId)/circulation?format=csv",
                                         as: GatewayHarness.adminKey)
            #expect(csv.status == 200)
            let rows = csv.text.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            let listed = Set(rows.filter { $0.count > 1 && $0[1] != "none" }.map { String($0[0]) })
            #expect(listed == expected, "\(ref.issueId): the recipient list names the accounts the engine entitles")
        }
        #expect(counted > 300, "the generated facts entitle many accounts to the year's issues")
    }
}
